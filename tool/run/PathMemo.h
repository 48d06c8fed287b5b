// A value per file, computed once per run and shared by the worker threads.
#ifndef WARPFIX_TOOL_RUN_PATHMEMO_H
#define WARPFIX_TOOL_RUN_PATHMEMO_H

#include "llvm/ADT/StringMap.h"
#include <mutex>

namespace warpfix {

template <typename Value> class PathMemo {
public:
  /// The value for Path, from Compute the first time. Compute runs outside
  /// the lock, so two threads may both run it for one path; it must give the
  /// same answer each time, and the first answer stored is kept.
  template <typename Fn> Value get(llvm::StringRef Path, Fn Compute) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      auto It = Known.find(Path);
      if (It != Known.end())
        return It->second;
    }
    Value Computed = Compute();
    std::lock_guard<std::mutex> Lock(Mutex);
    return Known.try_emplace(Path, std::move(Computed)).first->second;
  }

private:
  std::mutex Mutex;
  llvm::StringMap<Value> Known;
};

} // namespace warpfix

#endif
