#include "checks/FindingSink.h"
#include "checks/NoLintDirectives.h"
#include "support/FileIdentity.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

using namespace clang;

namespace warpfix {

void FindingSink::recordHash(FileID File, llvm::StringRef Path) {
  if (FileHashes.count(Path))
    return;
  std::optional<llvm::MemoryBufferRef> Buffer = SM.getBufferOrNone(File);
  if (Buffer)
    FileHashes[Path] = contentHash(Buffer->getBuffer());
}

const std::string *FindingSink::place(SourceLocation Loc, unsigned &Offset) {
  if (Loc.isInvalid())
    return nullptr;
  SourceLocation Spelling = SM.getSpellingLoc(Loc);
  FileID File = SM.getFileID(Spelling);
  auto Known = Paths.find(File);
  if (Known == Paths.end()) {
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    if (!Entry)
      return nullptr;
    Known = Paths.try_emplace(File, absolutePath(SM, Entry->getName())).first;
    recordHash(File, Known->second);
  }
  Offset = SM.getFileOffset(Spelling);
  return &Known->second;
}

bool FindingSink::place(SourceLocation Loc, std::string &Path,
                        unsigned &Offset) {
  const std::string *Placed = place(Loc, Offset);
  if (Placed)
    Path = *Placed;
  return Placed;
}

FindingBuilder FindingSink::report(llvm::StringRef Check, SourceLocation Loc,
                                   llvm::StringRef Message) {
  tooling::Diagnostic Diag(Check, tooling::Diagnostic::Warning, BuildDirectory);
  Diag.Message.Message = std::string(Message);
  if (!place(Loc, Diag.Message.FilePath, Diag.Message.FileOffset)) {
    // Code written in scratch space (token pasting) has no spelling a user can
    // edit; the place where the macro was used is the honest location.
    place(SM.getExpansionLoc(Loc), Diag.Message.FilePath,
          Diag.Message.FileOffset);
  }
  Findings.push_back(std::move(Diag));
  FixAbandoned.push_back(false);
  Places.push_back({Loc});
  // Decided here, while Loc still knows the macro expansions it came through.
  Suppressed.push_back(NoLint && NoLint->isSuppressed(Check, Loc));
  return FindingBuilder(*this, Findings.size() - 1);
}

std::vector<tooling::Diagnostic> FindingSink::takeFindings() {
  std::vector<tooling::Diagnostic> Kept;
  SuppressedFindings.clear();
  // Reserved: growing would copy the findings (see Findings).
  size_t SuppressedCount = llvm::count(Suppressed, true);
  Kept.reserve(Findings.size() - SuppressedCount);
  SuppressedFindings.reserve(SuppressedCount);
  for (size_t I = 0; I < Findings.size(); ++I)
    (Suppressed[I] ? SuppressedFindings : Kept)
        .push_back(std::move(Findings[I]));
  Findings.clear();
  FixAbandoned.clear();
  Places.clear();
  Suppressed.clear();
  return Kept;
}

void FindingSink::review(
    llvm::function_ref<std::optional<std::string>(
        llvm::ArrayRef<SourceLocation>)>
        Withhold,
    llvm::StringRef NoteForAll) {
  for (size_t I = 0; I < Findings.size(); ++I) {
    FindingBuilder Finding(*this, I);
    SourceLocation At = Places[I].front();
    if (!Findings[I].Message.Fix.empty())
      if (std::optional<std::string> Why = Withhold(Places[I]))
        Finding.withoutFix(At, "no automatic fix: " + *Why);
    // A call that clang dropped with an error is a caller this unit cannot
    // see: it may not abstain, it refuses.
    for (tooling::DiagnosticMessage &Note : Findings[I].Notes)
      if (llvm::StringRef(Note.Message).starts_with(AbstentionPrefix))
        Note.Message = "no automatic fix: " +
                       Note.Message.substr(AbstentionPrefix.size()) +
                       "; and clang reported errors here, which may have "
                       "dropped a call";
    if (!NoteForAll.empty())
      Finding.note(At, NoteForAll);
  }
}

void FindingSink::reviewEdits(
    llvm::function_ref<std::optional<std::string>(llvm::StringRef, unsigned,
                                                  unsigned)>
        Withhold) {
  for (size_t I = 0; I < Findings.size(); ++I) {
    std::optional<std::string> Why;
    for (const auto &Entry : Findings[I].Message.Fix)
      for (const tooling::Replacement &R : Entry.second)
        if (!Why)
          Why = Withhold(R.getFilePath(), R.getOffset(), R.getLength());
    if (Why)
      FindingBuilder(*this, I).withoutFix(Places[I].front(),
                                          "no automatic fix: " + *Why);
  }
}

tooling::Diagnostic &FindingBuilder::diag() { return Sink.Findings[Index]; }

FindingBuilder &FindingBuilder::note(SourceLocation Loc,
                                     llvm::StringRef Message) {
  tooling::DiagnosticMessage Note(Message);
  if (!Sink.place(Loc, Note.FilePath, Note.FileOffset))
    Sink.place(Sink.SM.getExpansionLoc(Loc), Note.FilePath, Note.FileOffset);
  diag().Notes.push_back(std::move(Note));
  return *this;
}

FindingBuilder &FindingBuilder::replace(CharSourceRange Range,
                                        llvm::StringRef Text) {
  if (Sink.FixAbandoned[Index])
    return *this;
  const SourceManager &SM = Sink.SM;
  unsigned Begin = 0;
  SourceLocation BeginLoc = Range.getBegin(), EndLoc = Range.getEnd();
  if (BeginLoc.isMacroID() || EndLoc.isMacroID()) {
    BeginLoc = SM.getSpellingLoc(BeginLoc);
    EndLoc = SM.getSpellingLoc(EndLoc);
  }
  // Valid until the next place(): read below before any other.
  const std::string *Path = Sink.place(BeginLoc, Begin);
  if (!Path || SM.getFileID(BeginLoc) != SM.getFileID(EndLoc)) {
    return withoutFix(Range.getBegin(),
                      "no automatic fix: the code is assembled by the "
                      "preprocessor and has no single place to edit");
  }
  unsigned End = SM.getFileOffset(EndLoc);
  if (Range.isTokenRange()) {
    // Default options, as before, made once: building them costs more than
    // measuring the token.
    static const LangOptions TokenOptions;
    End += Lexer::MeasureTokenLength(EndLoc, SM, TokenOptions);
  }
  if (End < Begin)
    return withoutFix(Range.getBegin(), "no automatic fix: inverted range");
  Sink.Places[Index].push_back(Range.getBegin());
  tooling::Replacements &Edits = diag().Message.Fix[*Path];
  tooling::Replacement Edit(*Path, Begin, End - Begin, Text);
  // The first edit in a file is all Replacements::add would keep; its
  // search of the set, for one edit in most findings, is skipped.
  if (Edits.empty()) {
    Edits = tooling::Replacements(Edit);
    return *this;
  }
  // Two parts of one fix that need the same text at one point (two racing
  // reads wanting one barrier) need it once; Replacements would concatenate.
  if (Begin == End && llvm::any_of(Edits, [&](const tooling::Replacement &R) {
        return R.getOffset() == Begin && R.getLength() == 0 &&
               R.getReplacementText() == Text;
      }))
    return *this;
  llvm::Error Err = Edits.add(Edit);
  if (Err) {
    llvm::consumeError(std::move(Err));
    return withoutFix(Range.getBegin(),
                      "no automatic fix: the edits of this fix overlap");
  }
  return *this;
}

FindingBuilder &FindingBuilder::insertBefore(SourceLocation Loc,
                                             llvm::StringRef Text) {
  return replace(CharSourceRange::getCharRange(Loc, Loc), Text);
}

FindingBuilder &FindingBuilder::withoutFix(SourceLocation Loc,
                                           llvm::StringRef Why) {
  diag().Message.Fix.clear();
  if (Sink.FixAbandoned[Index])
    return *this;
  Sink.FixAbandoned[Index] = true;
  return note(Loc, Why);
}

FindingBuilder &FindingBuilder::vetoOnly() {
  Sink.Suppressed[Index] = true;
  return *this;
}

FindingBuilder &FindingBuilder::abstain(SourceLocation Loc,
                                        llvm::StringRef Why) {
  return withoutFix(Loc, (AbstentionPrefix + Why).str());
}

bool abstains(const tooling::Diagnostic &D) {
  return D.Message.Fix.empty() &&
         llvm::any_of(D.Notes, [](const tooling::DiagnosticMessage &Note) {
           return llvm::StringRef(Note.Message).starts_with(AbstentionPrefix);
         });
}

} // namespace warpfix
