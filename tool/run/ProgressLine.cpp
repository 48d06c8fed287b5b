#include "tool/run/ProgressLine.h"
#include "tool/input/Paths.h"
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

/// The file as the user tells it from others of the same name (six vote.cu
/// in six folders): relative to the current directory where it lies under
/// it, else as named.
std::string shownName(llvm::StringRef File) {
  return belowCurrentDirectory(File).value_or(File).str();
}

} // namespace

ProgressLine::ProgressLine(llvm::raw_ostream &OS, size_t Total, bool Enabled)
    : OS(OS), Total(Total), Enabled(Enabled),
      Start(std::chrono::steady_clock::now()) {}

void ProgressLine::started(llvm::StringRef File) {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  Current = shownName(File);
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
  Text << "  ";
  // A line longer than the terminal would wrap, and \r would then redraw
  // only its last part. The name loses its start, its end tells files apart.
  unsigned Columns = llvm::sys::Process::StandardErrColumns();
  llvm::StringRef Name = Current;
  constexpr llvm::StringLiteral Elided = "...";
  if (Columns > 1 && Line.size() + Name.size() >= Columns) {
    size_t Room = Columns - 1 > Line.size() ? Columns - 1 - Line.size() : 0;
    Name = Room > Elided.size() ? Name.take_back(Room - Elided.size()) : "";
    if (!Name.empty())
      Text << Elided;
  }
  Text << Name;
  if (Columns > 1 && Line.size() >= Columns)
    Line.resize(Columns - 1);
  OS << "\r" << Line << "\x1b[K";
  OS.flush();
  Drawn = true;
}

} // namespace warpfix
