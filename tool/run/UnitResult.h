// What the analysis of one translation unit gives the rest of the run (its
// findings, the files it read, how it parsed), and how it is to parse: plain
// values, which the result cache, the merge and the reports read without the
// analyser.
#ifndef WARPFIX_TOOL_RUN_UNITRESULT_H
#define WARPFIX_TOOL_RUN_UNITRESULT_H

#include "tool/run/ArchConditions.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/StringMap.h"
#include <string>
#include <utility>
#include <vector>

namespace warpfix {

class SharedPreambles;
class HeadersByName;

/// A file a TU read, with the hash of the content it saw.
struct FileDigest {
  std::string Path;
  std::string Hash;
};

/// How the note that each finding of a unit with errors gets begins.
constexpr llvm::StringLiteral ErrorsNotePrefix = "analysed despite errors: ";

struct TranslationUnitResult {
  std::string MainFile;
  /// True when the checks ran on clang's AST (errors or not) and their
  /// findings stand, or the prefilter skipped the TU. False when no AST was
  /// analysed (clang built none, warpfix crashed, or --strict-parse dropped
  /// a TU with errors): none of its files is then ever rewritten, and its
  /// findings, if any, are the lexical ones, without fixes.
  bool Parsed = false;
  /// clang's errors: how many, and the first ("file:line:col: message").
  unsigned ErrorCount = 0;
  std::string FirstError;
  /// clang built no AST to analyse (a bad command line, say).
  bool NoAst = false;
  /// warpfix crashed on this TU, in this stage ("parse", "analysis").
  bool Crashed = false;
  std::string CrashStage;
  std::vector<clang::tooling::Diagnostic> Findings;
  /// Findings a NOLINT comment covers: never shown, but they veto a fix that
  /// an unsuppressed copy would make to code they share (a macro body).
  std::vector<clang::tooling::Diagnostic> Suppressed;
  llvm::StringMap<std::string> FileHashes;
  /// For a TU that did not parse: the files it read, which another TU's fix
  /// must then leave alone, since this TU's view of them is unknown.
  std::vector<std::string> FilesRead;
  /// For a TU that parsed: every file it read, for the result cache.
  std::vector<FileDigest> Dependencies;
  /// clang's own messages (errors of a failed parse), held back so that TUs
  /// analysed in parallel print them whole and in order.
  std::string CompilerMessages;
  /// The prefilter found nothing any enabled check looks at; not parsed.
  bool SkippedByPrefilter = false;
  bool FromCache = false;
  /// The #includes that clang did not find, by the names they give.
  std::vector<std::string> MissingHeaders;
  /// #includes that the command's paths did not find and HeadersByName did,
  /// each with its folder, which the parse then searched last (-idirafter).
  std::vector<std::pair<std::string, std::string>> FoundByName;
  /// Those found by name whose file, or what it includes, had errors: the
  /// folder was not used.
  std::vector<std::pair<std::string, std::string>> RejectedByName;
  /// The other ways the build compiles this file (its compile commands that
  /// differ in macros, flags or architectures), which were not parsed:
  /// what they need in the files this unit read is unknown. Not cached: the
  /// database says it.
  unsigned OtherCommands = 0;
  /// The files that clang's errors are in, as it names them.
  std::vector<std::string> FilesWithErrors;
  /// Not a unit: a header under the folders given that no unit read, with
  /// the findings of a lexical reading (tool/run/UnreadHeaders.h).
  bool UnreadHeader = false;
  /// The architecture of this parse, where the run parsed the file for more
  /// than one: the build's programs differ, and a fix must suit each.
  std::string Arch;
  /// A further parse of a unit, for another of its architectures: counted
  /// with the unit, not as one of its own.
  bool ExtraArchitecture = false;
  /// Every user file the parse read, with the ranges [begin, end) of its
  /// text that the preprocessor skipped (`#if` branches not taken).
  llvm::StringMap<std::vector<std::pair<unsigned, unsigned>>> SkippedText;
  /// How the user's code of this parse depends on the architecture, as its
  /// preprocessor saw it (ArchDependence.h); ArchRecorded is false where no
  /// parse recorded it (the prefilter skipped the unit).
  ArchConditions ArchDependence;
  bool ArchRecorded = false;
};

/// How the analyser treats code that does not compile.
struct ParseSettings {
  /// --strict-parse: a TU with an error is dropped, as before issue 14.
  bool Strict = false;
  /// Testing only: the analysis of a TU whose main file's path ends with
  /// this traps, to show that a crash is contained.
  std::string TestingCrashFile;
  /// Where the units of the run share the parse of their leading system
  /// headers (tool/run/SharedPreambles.h); null: each parses alone.
  SharedPreambles *Preambles = nullptr;
  /// Testing only: a shell command run before each unit is parsed, with the
  /// unit's path as $1, to change a header between two units.
  std::string TestingBeforeUnit;
  /// Benchmarks only: each unit is parsed and no check runs on it.
  bool ParseOnly = false;
  /// Nothing is parsed once the units are analysed (no rewrite is checked by
  /// parsing it): the syntax tree of a worker's last unit is left to the
  /// process's exit, as clang's -disable-free leaves it, not freed.
  bool NoParseAfterAnalysis = false;
  /// The directories whose headers' host bodies the parse skips
  /// (tool/run/HostBodies.h).
  std::vector<std::string> ToolchainRoots;
  /// Where an #include that is not found may be found by its name; null:
  /// nowhere.
  const HeadersByName *Headers = nullptr;
};

} // namespace warpfix

#endif
