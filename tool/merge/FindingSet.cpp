#include "tool/merge/FindingSet.h"
#include "checks/FindingSink.h"
#include "checks/analysis/SkippedCode.h"
#include "support/FileIdentity.h"
#include "tool/input/Paths.h"
#include "tool/merge/EditSet.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <tuple>

using clang::tooling::Diagnostic;
using clang::tooling::DiagnosticMessage;
using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace warpfix {
namespace {

/// The order of findings, and what makes two of them copies of one: the
/// file, the offset, the check and the message.
bool keyLess(const Diagnostic *A, const Diagnostic *B) {
  return std::tie(A->Message.FilePath, A->Message.FileOffset,
                  A->DiagnosticName, A->Message.Message) <
         std::tie(B->Message.FilePath, B->Message.FileOffset,
                  B->DiagnosticName, B->Message.Message);
}

bool sameFix(const llvm::StringMap<Replacements> &A,
             const llvm::StringMap<Replacements> &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &Entry : A) {
    auto It = B.find(Entry.getKey());
    if (It == B.end() || !(It->second.size() == Entry.second.size() &&
                           std::equal(Entry.second.begin(), Entry.second.end(),
                                      It->second.begin())))
      return false;
  }
  return true;
}

bool sameNote(const DiagnosticMessage &A, const DiagnosticMessage &B) {
  return A.FilePath == B.FilePath && A.FileOffset == B.FileOffset &&
         A.Message == B.Message;
}

bool hasNote(const Diagnostic &D, const DiagnosticMessage &Note) {
  return llvm::any_of(D.Notes, [&](const DiagnosticMessage &N) {
    return sameNote(N, Note);
  });
}

void appendNotes(Diagnostic &Into, const Diagnostic &From) {
  for (const DiagnosticMessage &Note : From.Notes)
    if (!hasNote(Into, Note))
      Into.Notes.push_back(Note);
}

DiagnosticMessage noteAt(const Diagnostic &D, llvm::StringRef Text) {
  DiagnosticMessage Note(Text);
  Note.FilePath = D.Message.FilePath;
  Note.FileOffset = D.Message.FileOffset;
  return Note;
}

/// Each unit with errors that sees shared code (a header, analysed through
/// the units that include it) adds its own "analysed despite errors" note:
/// the first is kept, and says how many more there were.
void collapseErrorNotes(Diagnostic &D) {
  auto &Notes = D.Notes;
  std::optional<size_t> First;
  size_t Kept = 0, Others = 0;
  for (size_t I = 0; I < Notes.size(); ++I) {
    bool OfErrors = llvm::StringRef(Notes[I].Message).starts_with(
        ErrorsNotePrefix);
    if (OfErrors && First) {
      ++Others;
      continue;
    }
    if (OfErrors)
      First = Kept;
    if (Kept != I)
      Notes[Kept] = std::move(Notes[I]);
    ++Kept;
  }
  Notes.truncate(Kept);
  if (Others)
    Notes[*First].Message +=
        "; " + std::to_string(Others) + " other translation unit" +
        (Others == 1 ? " that sees this code has" : "s that see this code have") +
        " errors too";
}

/// The note of a finding that no analysed unit judges.
static constexpr llvm::StringLiteral EveryUnitAbstains =
    "no automatic fix: every analysed translation unit abstains, since none "
    "sees all the callers of this code; analyse one that calls it (or "
    "instantiates its template) to have it fixed";

/// The note of a finding whose copies need different fixes.
static constexpr llvm::StringLiteral DifferentFixes =
    "no automatic fix: this code is shared by several macro expansions, "
    "template instantiations or translation units, and they need different "
    "fixes";

bool hasSharedParameterFix(const Diagnostic &D) {
  return !D.Message.Fix.empty() &&
         llvm::any_of(D.Notes, [](const DiagnosticMessage &N) {
           return llvm::StringRef(N.Message).starts_with(SharedParameterPrefix);
         });
}

/// The copies' fixes joined, where each gives a helper in a header a new
/// parameter (SharedParameterPrefix): every unit edits the helper's header
/// and the calls that it sees, so two plans differ in the files only one of
/// them reads. They are joined when, in every file that two of them edit,
/// they edit it alike; a unit that reads such a file sees the same calls
/// there, and plans the same edits for it.
std::optional<llvm::StringMap<Replacements>>
joinedParameterFixes(llvm::ArrayRef<const Diagnostic *> Copies) {
  if (!llvm::all_of(Copies, [](const Diagnostic *D) {
        return hasSharedParameterFix(*D);
      }))
    return std::nullopt;
  llvm::StringMap<Replacements> Joined;
  for (const Diagnostic *D : Copies)
    for (const auto &Entry : D->Message.Fix) {
      auto [It, New] = Joined.try_emplace(Entry.getKey(), Entry.second);
      if (!New && !(It->second.size() == Entry.second.size() &&
                    std::equal(Entry.second.begin(), Entry.second.end(),
                               It->second.begin())))
        return std::nullopt;
    }
  return Joined;
}

/// The note of a fix that gives a helper in a header a new parameter, in a
/// run over part of the project.
static constexpr llvm::StringLiteral PartOfTheProject =
    "no automatic fix: this run is over part of the project, and a unit left "
    "out that includes the header may call the helper too, which the new "
    "parameter would break; run warpfix over the project's folders, or with "
    "-p and no file names, to have it fixed";

/// Why the copies disagree, where one gives the helper a mask parameter.
static constexpr llvm::StringLiteral ParameterDisagrees =
    "a unit that calls the helper from only some lanes gives it a mask "
    "parameter, which every unit that calls it must pass; another unit of "
    "this run fixes it otherwise (with the full mask, where every lane calls "
    "it there), or not at all";

/// The note of a helper's new parameter that a unit vetoes.
static constexpr llvm::StringLiteral ParameterVetoed =
    "no automatic fix: a unit of this run that does not call the helper "
    "names it otherwise, and the new parameter could take over those calls";

/// Folds the copies of one finding (from several TUs, instantiations or macro
/// expansions) into one; their fix survives only if all of them agree on it.
/// A copy from a unit that does not run the code abstains: the others decide.
Diagnostic foldSharedCopies(std::vector<const Diagnostic *> Copies) {
  // A unit that abstains may still veto a helper's new parameter.
  Diagnostic Vetoes;
  for (const Diagnostic *D : Copies)
    for (const DiagnosticMessage &Note : D->Notes)
      if (llvm::StringRef(Note.Message).starts_with(ParameterVetoPrefix) &&
          !hasNote(Vetoes, Note))
        Vetoes.Notes.push_back(Note);
  std::vector<const Diagnostic *> Judges;
  for (const Diagnostic *D : Copies)
    if (!abstains(*D))
      Judges.push_back(D);
  if (Judges.empty()) {
    Diagnostic Folded = *Copies.front();
    Folded.Notes.clear();
    for (const Diagnostic *D : Copies)
      appendNotes(Folded, *D);
    Folded.Notes.push_back(noteAt(Folded, EveryUnitAbstains.str()));
    return Folded;
  }
  Copies = std::move(Judges);
  bool Agree = llvm::all_of(Copies, [&](const Diagnostic *D) {
    return sameFix(D->Message.Fix, Copies.front()->Message.Fix);
  });
  Diagnostic Folded = *Copies.front();
  Folded.Notes.clear();
  std::optional<llvm::StringMap<Replacements>> Joined;
  if (!Agree)
    Joined = joinedParameterFixes(Copies);
  if (Agree || Joined) {
    if (Joined)
      Folded.Message.Fix = std::move(*Joined);
    for (const Diagnostic *D : Copies)
      appendNotes(Folded, *D);
    if (!Vetoes.Notes.empty() && hasSharedParameterFix(Folded)) {
      Folded.Message.Fix.clear();
      appendNotes(Folded, Vetoes);
      Folded.Notes.push_back(noteAt(Folded, ParameterVetoed.str()));
    }
    return Folded;
  }
  Folded.Message.Fix.clear();
  Folded.Notes.push_back(noteAt(Folded, DifferentFixes.str()));
  if (llvm::any_of(Copies, [](const Diagnostic *D) {
        return hasSharedParameterFix(*D);
      }))
    Folded.Notes.push_back(noteAt(Folded, ParameterDisagrees.str()));
  for (const Diagnostic *D : Copies) {
    if (D->Message.Fix.empty()) {
      appendNotes(Folded, *D);
      continue;
    }
    // Of the copies that had a fix, only where they come from still holds.
    Diagnostic Context;
    for (const DiagnosticMessage &Note : D->Notes)
      if (llvm::StringRef(Note.Message).starts_with("in this expansion"))
        Context.Notes.push_back(Note);
    appendNotes(Folded, Context);
  }
  return Folded;
}

/// As foldSharedCopies, which copies what it keeps; a finding that one
/// judging copy alone makes, the usual case, is moved instead, with its
/// repeated notes dropped as the fold drops them.
Diagnostic foldCopies(llvm::ArrayRef<Diagnostic *> Copies) {
  if (Copies.size() != 1 || abstains(*Copies.front())) {
    Diagnostic Folded = foldSharedCopies({Copies.begin(), Copies.end()});
    collapseErrorNotes(Folded);
    return Folded;
  }
  Diagnostic Folded = std::move(*Copies.front());
  // In place: a note is kept unless one kept before it says the same.
  auto &Notes = Folded.Notes;
  size_t Kept = 0;
  for (size_t I = 0; I < Notes.size(); ++I) {
    if (llvm::any_of(llvm::ArrayRef(Notes).take_front(Kept),
                     [&](const DiagnosticMessage &N) {
                       return sameNote(N, Notes[I]);
                     }))
      continue;
    if (Kept != I)
      Notes[Kept] = std::move(Notes[I]);
    ++Kept;
  }
  Notes.truncate(Kept);
  return Folded;
}

/// The insertion at Offset in Set, if any: a scan, for the few edits of one
/// finding or of one neighbourhood.
const Replacement *insertionAt(const Replacements &Set, unsigned Offset) {
  for (const Replacement &R : Set)
    if (R.getOffset() == Offset && R.getLength() == 0)
      return &R;
  return nullptr;
}

/// Set (one finding's edits in one file) with Old swapped for New (or
/// dropped).
Replacements replaced(const Replacements &Set, const Replacement &Old,
                      std::optional<Replacement> New) {
  Replacements Result;
  for (const Replacement &R : Set)
    if (!(R == Old))
      llvm::cantFail(Result.add(R));
  if (New)
    llvm::cantFail(Result.add(*New));
  return Result;
}

/// What the merge keeps for each file it edits.
struct FileMerge {
  /// The edits of the findings accepted so far.
  EditSet Accepted;
  /// The texts already joined into each insertion point.
  std::map<unsigned, std::vector<std::string>> Parts;
  /// The accepted findings with an insertion at each offset: those whose
  /// edit changes when a later finding's text is joined into it.
  llvm::DenseMap<unsigned, llvm::SmallVector<size_t, 2>> InsertingAt;
};

/// A copy made by reading the text of a branch that its unit's architecture
/// skipped: that unit compiles none of it, and judges nothing there.
bool skippedByArchitecture(const Diagnostic &D) {
  static const std::string Prefix =
      ("not analysed: " + ArchitectureSkipsReason).str();
  return D.Message.Fix.empty() &&
         llvm::any_of(D.Notes, [](const DiagnosticMessage &Note) {
           return llvm::StringRef(Note.Message).starts_with(Prefix);
         });
}

/// Whether Unit compiles none of the text that Fix edits: each edit lies
/// inside a branch its preprocessor skipped, or in a file it did not read.
bool compilesNoneOf(const TranslationUnitResult &Unit,
                    const llvm::StringMap<Replacements> &Fix) {
  for (const auto &[File, Edits] : Fix) {
    auto Skipped = Unit.SkippedText.find(File);
    if (Skipped == Unit.SkippedText.end()) {
      // The prefilter's units name the files they read only as dependencies.
      bool Read = Unit.SkippedByPrefilter &&
                  llvm::any_of(Unit.Dependencies, [&](const FileDigest &F) {
                    llvm::SmallString<256> Path(F.Path);
                    llvm::sys::path::remove_dots(Path, true);
                    return Path == File;
                  });
      if (Read)
        return false;
      continue;
    }
    for (const Replacement &R : Edits)
      if (llvm::none_of(Skipped->second, [&](const auto &Range) {
            return Range.first < R.getOffset() &&
                   R.getOffset() + R.getLength() < Range.second;
          }))
        return false;
  }
  return true;
}

/// The parses of one file for several architectures (units with the same
/// main file): each compiles its own program from the same text, and a fix
/// that one of them makes must suit the others.
class ArchitectureFamilies {
public:
  ArchitectureFamilies(llvm::ArrayRef<TranslationUnitResult> Results)
      : Results(Results) {
    llvm::StringSet<> Several;
    for (const TranslationUnitResult &TU : Results)
      if (TU.ExtraArchitecture)
        Several.insert(TU.MainFile);
    for (unsigned U = 0; U < Results.size(); ++U)
      if (Results[U].Parsed && Several.contains(Results[U].MainFile))
        Members[Results[U].MainFile].push_back(U);
  }

  bool empty() const { return Members.empty(); }

  /// Refuses D's fix where a unit that judged none of it compiles what it
  /// edits: those whose copies were read from a branch their architecture
  /// skipped (Stepped), and the other parses of each file whose parse judged
  /// D (Judges) that made no copy of it at all (Seen lists every unit that
  /// made one).
  void review(Diagnostic &D, llvm::ArrayRef<unsigned> Judges,
              llvm::ArrayRef<unsigned> Seen, llvm::ArrayRef<unsigned> Stepped) {
    if (D.Message.Fix.empty()) {
      nameDisagreement(D, Judges);
      return;
    }
    std::vector<unsigned> Bound(Stepped.begin(), Stepped.end());
    for (unsigned J : Judges) {
      auto Family = Members.find(Results[J].MainFile);
      if (Family == Members.end())
        continue;
      for (unsigned U : Family->second)
        if (!llvm::is_contained(Seen, U) && !llvm::is_contained(Bound, U))
          Bound.push_back(U);
    }
    for (unsigned U : Bound) {
      if (compilesNoneOf(Results[U], D.Message.Fix))
        continue;
      D.Message.Fix.clear();
      D.Notes.push_back(noteAt(
          D, "no automatic fix: the parse of '" + Results[U].MainFile +
                 "' for " + architectureOf(Results[U]) +
                 " compiles the code this fix edits, and needs no such fix "
                 "there: the build's architectures take different #if "
                 "branches here. Port it by hand, or name the architectures "
                 "the build compiles for with --cuda-gpu-arch (or -p)"));
      return;
    }
  }

private:
  static std::string architectureOf(const TranslationUnitResult &TU) {
    return TU.Arch.empty() ? "its first architecture" : TU.Arch;
  }

  /// Where the copies that disagree are the parses of one file, says so.
  void nameDisagreement(Diagnostic &D, llvm::ArrayRef<unsigned> Judges) {
    auto Note = llvm::find_if(D.Notes, [](const DiagnosticMessage &N) {
      return N.Message == DifferentFixes;
    });
    if (Note == D.Notes.end() || Judges.size() < 2 ||
        llvm::any_of(Judges, [&](unsigned J) {
          return Results[J].MainFile != Results[Judges.front()].MainFile;
        }))
      return;
    std::vector<std::string> Named;
    for (unsigned J : Judges)
      if (!llvm::is_contained(Named, architectureOf(Results[J])))
        Named.push_back(architectureOf(Results[J]));
    // Every architecture of nvcc 13 makes a long list.
    constexpr size_t MostNamed = 4;
    std::string Archs = llvm::join(
        llvm::ArrayRef(Named).take_front(MostNamed), ", ");
    if (Named.size() > MostNamed)
      Archs += " and " + std::to_string(Named.size() - MostNamed) + " more";
    Note->Message =
        "no automatic fix: the parses of this file for " + Archs +
        " need different fixes here (the build's architectures take "
        "different #if branches); port it by hand, or name the "
        "architectures the build compiles for with --cuda-gpu-arch (or -p)";
  }

  llvm::ArrayRef<TranslationUnitResult> Results;
  llvm::StringMap<std::vector<unsigned>> Members;
};

/// A fix as text, to find the findings that share it whole.
std::string fixKey(const llvm::StringMap<Replacements> &Fix) {
  std::vector<std::string> Parts;
  for (const auto &[File, Edits] : Fix)
    for (const Replacement &R : Edits)
      Parts.push_back(File.str() + '\0' + std::to_string(R.getOffset()) +
                      '\0' + std::to_string(R.getLength()) + '\0' +
                      R.getReplacementText().str());
  llvm::sort(Parts);
  return llvm::join(Parts, "\1");
}

/// The races of one chain of statements (a volatile reduction's six steps)
/// are each a finding of warp-missing-syncwarp, and one rewrite fixes them
/// all: they are told as one finding, the first, with each other race as a
/// note where it stands.
void foldRacesOfOneRewrite(std::vector<Diagnostic> &Findings) {
  llvm::StringMap<size_t> FirstWith;
  std::vector<bool> Folded(Findings.size());
  for (size_t I = 0; I < Findings.size(); ++I) {
    Diagnostic &D = Findings[I];
    if (D.DiagnosticName != "warp-missing-syncwarp" || D.Message.Fix.empty())
      continue;
    auto [It, First] = FirstWith.try_emplace(fixKey(D.Message.Fix), I);
    if (First)
      continue;
    Diagnostic &Survivor = Findings[It->second];
    // The evidence alone: "lane 16 writes sdata[16] and lane 0 reads it".
    llvm::StringRef Evidence = D.Message.Message;
    Evidence.consume_front("lanes of one warp race on shared memory: ");
    Evidence = Evidence.split(" with no __syncwarp()").first;
    DiagnosticMessage Race("the same rewrite orders this race too: " +
                           Evidence.str());
    Race.FilePath = D.Message.FilePath;
    Race.FileOffset = D.Message.FileOffset;
    Survivor.Notes.push_back(Race);
    appendNotes(Survivor, D);
    Folded[I] = true;
  }
  size_t Kept = 0;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Folded[I]) {
      if (Kept != I)
        Findings[Kept] = std::move(Findings[I]);
      ++Kept;
    }
  Findings.erase(Findings.begin() + Kept, Findings.end());
}

} // namespace

bool containsReplacement(const Replacements &Set,
                         const clang::tooling::Replacement &R) {
  return llvm::is_contained(Set, R);
}

size_t FindingSet::fixableCount() const {
  return llvm::count_if(Findings,
                        [](const Diagnostic &D) { return !D.Message.Fix.empty(); });
}

size_t FindingSet::uncalledCount() const {
  return llvm::count_if(Findings, [](const Diagnostic &D) {
    return llvm::any_of(D.Notes, [](const DiagnosticMessage &Note) {
      return Note.Message == EveryUnitAbstains;
    });
  });
}

size_t FindingSet::fileCount() const {
  llvm::StringSet<> Files;
  for (const Diagnostic &D : Findings)
    Files.insert(D.Message.FilePath);
  return Files.size();
}

FindingSet
mergeFindings(std::vector<TranslationUnitResult> Results,
              llvm::function_ref<Visibility(llvm::StringRef)> VisibilityOf,
              bool WholeProject) {
  FindingSet Set;
  // Point into Results, which the fold may move from. Sorted by key rather
  // than kept in a map by a copy of it: a stable sort keeps the copies of one
  // finding in the order they came, as a map's lists did.
  std::vector<Diagnostic *> Shown, Hidden, OutsidePaths;
  auto sortIn = [&](Diagnostic &D) {
    switch (VisibilityOf(D.Message.FilePath)) {
    case Visibility::Shown:
      Shown.push_back(&D);
      break;
    case Visibility::OutsidePaths:
      OutsidePaths.push_back(&D);
      [[fallthrough]];
    case Visibility::FilteredOut:
      Hidden.push_back(&D);
    }
  };
  std::vector<const Diagnostic *> Suppressed;
  llvm::StringMap<std::string> ReadByFailedTU;
  for (const TranslationUnitResult &TU : Results)
    if (!TU.Parsed)
      for (const std::string &File : TU.FilesRead)
        ReadByFailedTU.try_emplace(
            File, TU.ExtraArchitecture
                      ? "the parse of '" + TU.MainFile + "' for " + TU.Arch +
                            " failed, so what that architecture needs here "
                            "is unknown"
                      : "'" + TU.MainFile +
                            "' also includes this file and did not parse, so "
                            "what it needs here is unknown");
  // A file that the build compiles in several ways, of which one was parsed:
  // the others may need other fixes wherever it reads.
  for (const TranslationUnitResult &TU : Results)
    if (TU.Parsed && TU.OtherCommands)
      for (const FileDigest &Read : TU.Dependencies)
        ReadByFailedTU.try_emplace(
            absolutePath(Read.Path),
            "the build compiles '" + TU.MainFile + "' with " +
                std::to_string(TU.OtherCommands) + " more command" +
                (TU.OtherCommands == 1 ? "" : "s") +
                " (other macros, flags or architectures) that warpfix "
                "did not parse, so what they need here is unknown");
  // Which unit made each copy: the parses of one file for several
  // architectures review each other's fixes.
  ArchitectureFamilies Families(Results);
  llvm::DenseMap<const Diagnostic *, unsigned> UnitOf;
  for (unsigned U = 0; U < Results.size(); ++U) {
    TranslationUnitResult &TU = Results[U];
    if (!Families.empty() || TU.ExtraArchitecture)
      for (Diagnostic &D : TU.Findings)
        UnitOf[&D] = U;
    if (!TU.Parsed) {
      if (!TU.UnreadHeader)
        Set.FailedFiles.push_back(TU.MainFile);
      // What a lexical reading found where no AST was analysed: reported,
      // never fixed.
      for (Diagnostic &D : TU.Findings)
        if (D.Message.Fix.empty())
          sortIn(D);
      continue;
    }
    for (const auto &Entry : TU.FileHashes) {
      auto [It, Inserted] =
          Set.FileHashes.try_emplace(Entry.getKey(), Entry.second);
      if (!Inserted && It->second != Entry.second)
        It->second.clear();
    }
    for (Diagnostic &D : TU.Findings)
      sortIn(D);
    for (const Diagnostic &D : TU.Suppressed)
      Suppressed.push_back(&D);
  }
  // One unit's findings mostly come in file order already; a stable sort of
  // sorted input leaves it as it is, but compares as much as for any other.
  if (!llvm::is_sorted(Shown, keyLess))
    llvm::stable_sort(Shown, keyLess);
  if (!llvm::is_sorted(Suppressed, keyLess))
    llvm::stable_sort(Suppressed, keyLess);
  // Counted once each, as shown ones are, however many units saw them.
  auto distinct = [](std::vector<Diagnostic *> &Copies) {
    llvm::sort(Copies, keyLess);
    size_t Count = 0;
    for (size_t I = 0; I < Copies.size(); ++I)
      Count += I == 0 || keyLess(Copies[I - 1], Copies[I]);
    return Count;
  };
  Set.HiddenByHeaderFilter = distinct(Hidden);
  Set.HiddenOutsidePaths = distinct(OutsidePaths);
  // Vetoes of every finding of a check and message, wherever it stands
  // (FindingBuilder::vetoOnly), with their reasons.
  std::map<std::pair<std::string, std::string>, std::string> VetoedEverywhere;
  for (const Diagnostic *S : Suppressed)
    for (const auto &Note : S->Notes)
      if (llvm::StringRef(Note.Message).starts_with(VetoEverywherePrefix))
        VetoedEverywhere.try_emplace({S->DiagnosticName, S->Message.Message},
                                     Note.Message);
  // Where each group of copies starts, found before any is folded.
  std::vector<size_t> GroupStarts;
  for (size_t I = 0; I < Shown.size(); ++I)
    if (I == 0 || keyLess(Shown[I - 1], Shown[I]))
      GroupStarts.push_back(I);
  GroupStarts.push_back(Shown.size());
  // Distinct findings may still edit overlapping text; the first in file order
  // keeps its fix and the later one is reported without. Insertions of
  // different text at one place (the ballots for the two arms of an if/else)
  // are joined into the first finding's edit.
  llvm::StringMap<FileMerge> Files;
  // Reserved: tooling::Diagnostic is copied, not moved, when a vector grows.
  Set.Findings.reserve(GroupStarts.size() - 1);
  for (size_t G = 0; G + 1 < GroupStarts.size(); ++G) {
    llvm::ArrayRef<Diagnostic *> Copies = llvm::ArrayRef(Shown).slice(
        GroupStarts[G], GroupStarts[G + 1] - GroupStarts[G]);
    // Looked up before the fold, which may move the key's strings away.
    auto Vetoes = std::equal_range(Suppressed.begin(), Suppressed.end(),
                                   Copies.front(), keyLess);
    // A copy read from a branch that its unit's architecture skipped steps
    // aside where another parse analysed the code: that unit is then bound
    // only to compile none of what the fix edits.
    llvm::SmallVector<Diagnostic *, 4> Judging;
    llvm::SmallVector<unsigned, 4> Judges, Seen, Stepped;
    bool Reviewed = !UnitOf.empty() &&
                    llvm::any_of(Copies, [](const Diagnostic *C) {
                      return !abstains(*C) && !skippedByArchitecture(*C);
                    });
    if (Reviewed) {
      for (Diagnostic *C : Copies) {
        unsigned U = UnitOf.lookup(C);
        Seen.push_back(U);
        if (skippedByArchitecture(*C)) {
          Stepped.push_back(U);
          continue;
        }
        if (!abstains(*C))
          Judges.push_back(U);
        Judging.push_back(C);
      }
      Copies = Judging;
    }
    // Folded into its place in the set, which is reserved: D stays valid.
    Diagnostic &D = Set.Findings.emplace_back(foldCopies(Copies));
    if (Reviewed)
      Families.review(D, Judges, Seen, Stepped);
    if (!WholeProject && hasSharedParameterFix(D)) {
      D.Message.Fix.clear();
      D.Notes.push_back(noteAt(D, PartOfTheProject.str()));
    }
    size_t Index = Set.Findings.size() - 1;
    // A macro body whose finding a NOLINT suppresses at one expansion site
    // is edited for the other expansions only if that one needs the same.
    // A unit's veto (FindingBuilder::vetoOnly) says why itself.
    auto Veto = std::find_if(Vetoes.first, Vetoes.second,
                             [&](const Diagnostic *S) {
                               return !sameFix(S->Message.Fix, D.Message.Fix);
                             });
    if (!D.Message.Fix.empty() && Veto != Vetoes.second) {
      D.Message.Fix.clear();
      auto Reason = llvm::find_if((*Veto)->Notes, [](const auto &Note) {
        return llvm::StringRef(Note.Message).starts_with(VetoReasonPrefix);
      });
      D.Notes.push_back(noteAt(
          D, Reason != (*Veto)->Notes.end()
                 ? Reason->Message
                 : std::string("no automatic fix: a NOLINT comment suppresses "
                               "this finding at another expansion of the "
                               "macro, which needs a different fix")));
    }
    if (!D.Message.Fix.empty() && !VetoedEverywhere.empty())
      if (auto Veto =
              VetoedEverywhere.find({D.DiagnosticName, D.Message.Message});
          Veto != VetoedEverywhere.end()) {
        D.Message.Fix.clear();
        D.Notes.push_back(noteAt(D, Veto->second));
      }
    for (const auto &Entry : D.Message.Fix) {
      auto Failed = ReadByFailedTU.find(Entry.getKey());
      if (Failed == ReadByFailedTU.end())
        continue;
      D.Message.Fix.clear();
      D.Notes.push_back(noteAt(D, "no automatic fix: " + Failed->second));
      break;
    }
    std::vector<std::pair<std::string, Replacement>> Joined;
    // Most fixes edit text that no accepted edit touches: then nothing can
    // clash or be joined (texts are joined only at accepted insertions), and
    // the trial below would only rebuild the fix's own edits.
    bool Alone = llvm::all_of(D.Message.Fix, [&](const auto &Entry) {
      auto File = Files.find(Entry.getKey());
      return File == Files.end() ||
             llvm::none_of(Entry.second, [&](const Replacement &R) {
               return File->second.Accepted.touches(R);
             });
    });
    for (const auto &Entry : D.Message.Fix) {
      if (Alone)
        break;
      FileMerge &File = Files[Entry.getKey()];
      // Only the accepted edits next to this fix's can clash with it or
      // merge with it: the trial is made on those alone.
      Replacements Trial = File.Accepted.around(Entry.second);
      bool Clash = false;
      for (const auto &R : Entry.second) {
        // Findings may share an edit, such as the ballot that computes the
        // mask of every call under one branch.
        if (containsReplacement(Trial, R))
          continue;
        if (R.getLength() == 0) {
          auto Texts = File.Parts.find(R.getOffset());
          if (Texts != File.Parts.end() &&
              llvm::is_contained(Texts->second, R.getReplacementText().str())) {
            Joined.push_back({Entry.getKey().str(), R}); // already in: drop it
            continue;
          }
        }
        if (llvm::Error Err = Trial.add(R)) {
          llvm::consumeError(std::move(Err));
          if (R.getLength() == 0 && insertionAt(Trial, R.getOffset())) {
            Joined.push_back({Entry.getKey().str(), R});
            continue;
          }
          Clash = true;
          break;
        }
      }
      if (Clash) {
        D.Message.Fix.clear();
        Joined.clear();
        D.Notes.push_back(noteAt(
            D, "no automatic fix: its edit overlaps the fix of an earlier "
               "finding; run warpfix again after applying that one"));
        break;
      }
    }
    for (const auto &[Path, R] : Joined) {
      FileMerge &File = Files[Path];
      std::vector<std::string> &Texts = File.Parts[R.getOffset()];
      if (llvm::is_contained(Texts, R.getReplacementText().str())) {
        D.Message.Fix[Path] = replaced(D.Message.Fix[Path], R, std::nullopt);
        continue;
      }
      Replacement Old = *File.Accepted.insertionAt(R.getOffset());
      if (Texts.empty())
        Texts.push_back(Old.getReplacementText().str());
      Texts.push_back(R.getReplacementText().str());
      Replacement Combined(
          Path, R.getOffset(), 0,
          (Old.getReplacementText() + R.getReplacementText()).str());
      File.Accepted.erase(Old);
      llvm::cantFail(File.Accepted.add(Combined));
      for (size_t Earlier : File.InsertingAt.lookup(R.getOffset())) {
        auto It = Set.Findings[Earlier].Message.Fix.find(Path);
        if (It != Set.Findings[Earlier].Message.Fix.end() &&
            containsReplacement(It->second, Old))
          It->second = replaced(It->second, Old, Combined);
      }
      D.Message.Fix[Path] = replaced(D.Message.Fix[Path], R, std::nullopt);
    }
    for (const auto &Entry : D.Message.Fix) {
      FileMerge &File = Files[Entry.getKey()];
      for (const auto &R : Entry.second) {
        if (!File.Accepted.contains(R))
          llvm::cantFail(File.Accepted.add(R));
        if (R.getLength() == 0)
          File.InsertingAt[R.getOffset()].push_back(Index);
      }
    }
  }
  foldRacesOfOneRewrite(Set.Findings);
  return Set;
}

} // namespace warpfix
