// One self-overwriting status line on stderr while translation units are
// analysed: how many are done, which one started last, elapsed time and ETA.
#ifndef WARPFIX_TOOL_RUN_PROGRESSLINE_H
#define WARPFIX_TOOL_RUN_PROGRESSLINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <mutex>
#include <string>

namespace warpfix {

class ProgressLine {
public:
  /// Enabled is false when stderr is not a terminal or the user asked for
  /// quiet; every call is then a no-op.
  ProgressLine(llvm::raw_ostream &OS, size_t Total, bool Enabled);
  ~ProgressLine() { clear(); }

  void started(llvm::StringRef File);
  void finished();
  /// Runs Print with the line erased, so that other output does not end up
  /// glued to it, then draws the line again.
  template <typename Fn> void interrupt(Fn Print) {
    std::lock_guard<std::mutex> Lock(Mutex);
    erase();
    Print();
    draw();
  }
  void clear();

private:
  void draw();
  void erase();

  llvm::raw_ostream &OS;
  size_t Total, Done = 0;
  bool Enabled, Drawn = false;
  std::string Current;
  std::chrono::steady_clock::time_point Start;
  std::mutex Mutex;
};

} // namespace warpfix

#endif
