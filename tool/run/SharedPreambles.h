// Translation units that begin with the same system headers parse them once
// (issue 18). The implicit CUDA wrapper headers and the leading
// `#include <...>` lines of a main file are compiled once per run into a
// precompiled preamble (clang's PrecompiledPreamble, as clangd does), and
// every unit with the same lines and the same effective flags reads it
// instead of parsing CUB, Thrust or cooperative groups again. The leading
// includes' preamble is chained on the implicit headers' one, which units of
// the same flags share, so that building it holds and writes less.
//
// Only a preamble of system headers is shared: the checks never match there,
// the preprocessor callbacks (full-mask macros, skipped #if branches) ignore
// system headers, and NOLINT comments are read from the file buffers, so what
// the checks see is the same with and without it. A preamble that reads a
// user header, or whose build says anything at all (an error, a warning),
// is not used: its units parse what it covers themselves, as without it.
#ifndef WARPFIX_TOOL_RUN_SHAREDPREAMBLES_H
#define WARPFIX_TOOL_RUN_SHAREDPREAMBLES_H

#include "tool/run/PreambleFolder.h"
#include "tool/run/UnitResult.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PCHContainerOperations.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/MemoryBuffer.h"
#include <future>
#include <map>
#include <memory>
#include <mutex>

namespace warpfix {

class SharedPreambles {
public:
  /// Report: where to say, for each unit, whether its preamble was built,
  /// reused or not shared, and why (for tests); null: nowhere.
  /// ToolchainRoots: the directories whose headers' host bodies a build
  /// skips, as the units' parses do (HostBodies.h).
  explicit SharedPreambles(std::vector<std::string> ToolchainRoots,
                           llvm::raw_ostream *Report = nullptr)
      : ToolchainRoots(std::move(ToolchainRoots)), Report(Report) {}

  struct Preamble;

  /// What a unit holds while it parses with a shared preamble: the preamble
  /// (its PCH must outlive the parse) and the main file's buffer, which the
  /// invocation now names as a remapped file.
  struct Use {
    std::shared_ptr<const Preamble> Shared;
    std::unique_ptr<llvm::MemoryBuffer> MainFile;
    /// The files the preamble read, with the SHA-256 of what it read, for
    /// the result cache: the parse itself no longer loads them.
    const std::vector<FileDigest> &files() const;
    /// The same files, named as a unit's FilesRead names them.
    const std::vector<std::string> &readPaths() const;
    /// The main files of the units that built the preamble and the one it
    /// is chained on. Their leading lines are in the preambles, under their
    /// names: not files this unit read.
    const std::vector<std::string> &builtFrom() const;
    /// The macros of the preamble whose values depend on the architecture
    /// (ArchDependence.h): the unit's preprocessor never saw them defined.
    const std::vector<std::string> &archMacros() const;
  };

  /// Sets Invocation up to read the shared preamble of its main file,
  /// building it first if no unit has, or if a file it read has changed
  /// since. Nothing (and Invocation untouched) when the unit must parse
  /// alone.
  std::optional<Use>
  attach(clang::CompilerInvocation &Invocation, clang::FileManager &Files,
         std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps);

private:
  /// The preamble of Main's leading Bounds, chained on Base if there is one,
  /// built if no unit has built it or if a file it read has changed since;
  /// null when it is not to be shared. Which names it in reports.
  std::shared_ptr<const Preamble>
  obtain(const clang::CompilerInvocation &Invocation, clang::FileManager &Files,
         std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
         const llvm::MemoryBuffer &Main, clang::PreambleBounds Bounds,
         llvm::StringRef WorkingDirectory, std::shared_ptr<const Preamble> Base,
         llvm::StringRef Which);
  void report(llvm::StringRef MainFile, llvm::StringRef Which,
              llvm::StringRef What);

  std::vector<std::string> ToolchainRoots;
  llvm::raw_ostream *Report;
  PreambleFolder Folder;
  /// A preamble being built, or built.
  struct Slot {
    std::shared_future<std::shared_ptr<const Preamble>> Ready;
  };
  std::mutex Mutex;
  /// By a hash of the clang version, the working directory, the effective
  /// -cc1 arguments (less what names the main file) and the preamble's text.
  std::map<std::string, std::shared_ptr<Slot>> Preambles;
};

/// The length of the part of Text that a preamble may cover: the leading
/// lines that are blank, comments, or `#include <...>`, up to the end of the
/// last such include line. Zero when the file starts with anything else (a
/// byte-order mark included): the preamble then holds the implicit headers
/// only.
size_t shareablePreambleLength(llvm::StringRef Text);

} // namespace warpfix

#endif
