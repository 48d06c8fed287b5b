#include "tool/run/ProgressLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace warpfix {
namespace {

std::string clockTime(double Seconds) {
  unsigned Whole = unsigned(Seconds + 0.5);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (Whole >= 3600)
    OS << Whole / 3600 << ":" << llvm::format("%02u", Whole / 60 % 60);
  else
    OS << Whole / 60;
  OS << ":" << llvm::format("%02u", Whole % 60);
  return Text;
}

} // namespace

ProgressLine::ProgressLine(llvm::raw_ostream &OS, size_t Total, bool Enabled)
    : OS(OS), Total(Total), Enabled(Enabled),
      Start(std::chrono::steady_clock::now()) {}

void ProgressLine::started(llvm::StringRef File) {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  Current = File.str();
  draw();
}

void ProgressLine::finished() {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  ++Done;
  draw();
}

void ProgressLine::clear() {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  erase();
}

void ProgressLine::erase() {
  if (!Enabled || !Drawn)
    return;
  OS << "\r\x1b[K";
  OS.flush();
  Drawn = false;
}

void ProgressLine::draw() {
  if (!Enabled)
    return;
  double Elapsed = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Start)
                       .count();
  std::string Line;
  llvm::raw_string_ostream Text(Line);
  Text << "[" << Done << "/" << Total << "] " << clockTime(Elapsed)
       << " elapsed";
  if (Done > 0 && Done < Total)
    Text << ", ETA " << clockTime(Elapsed / Done * (Total - Done));
  Text << "  " << llvm::sys::path::filename(Current);
  // A line longer than the terminal would wrap, and \r would then redraw
  // only its last part.
  unsigned Columns = llvm::sys::Process::StandardErrColumns();
  if (Columns > 1 && Line.size() >= Columns)
    Line.resize(Columns - 1);
  OS << "\r" << Line << "\x1b[K";
  OS.flush();
  Drawn = true;
}

} // namespace warpfix
