#include "tool/run/ArchConditions.h"
#include "tool/input/GpuArchitectures.h"
#include "tool/input/Paths.h"
#include "tool/input/RegularFile.h"
#include "tool/run/UnitResult.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

namespace warpfix {

std::string withoutLineSplices(llvm::StringRef Text) {
  std::string Clean;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\\') {
      size_t J = I + 1;
      while (J < Text.size() && (Text[J] == ' ' || Text[J] == '\t'))
        ++J;
      if (J < Text.size() && (Text[J] == '\n' || Text[J] == '\r')) {
        I = J + (Text[J] == '\r' && J + 1 < Text.size() && Text[J + 1] == '\n');
        continue;
      }
    }
    Clean += Text[I];
  }
  return Clean;
}

std::optional<FileStretch> fileStretch(const clang::SourceManager &SM,
                                       clang::SourceRange Range) {
  FileStretch Stretch;
  std::tie(Stretch.File, Stretch.Begin) = SM.getDecomposedLoc(Range.getBegin());
  auto [EndFile, End] = SM.getDecomposedLoc(Range.getEnd());
  Stretch.End = End;
  bool Invalid = false;
  Stretch.Buffer = SM.getBufferData(Stretch.File, &Invalid);
  if (Invalid || EndFile != Stretch.File || Stretch.End <= Stretch.Begin ||
      Stretch.End > Stretch.Buffer.size())
    return std::nullopt;
  return Stretch;
}

std::optional<std::vector<unsigned>>
literalComparison(llvm::StringRef Text, NameValue ValueOf,
                  std::vector<std::string> *Names) {
  // Line splices, which the raw lexer keeps in its tokens' spellings.
  std::string Clean = withoutLineSplices(Text);
  clang::LangOptions Lang;
  Lang.CPlusPlus = true;
  clang::Lexer Raw(clang::SourceLocation(), Lang, Clean.data(), Clean.data(),
                   Clean.data() + Clean.size());
  std::vector<unsigned> Numbers;
  clang::Token Tok;
  bool AfterDefined = false, Pure = true;
  while (true) {
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    if (Tok.is(clang::tok::raw_identifier)) {
      llvm::StringRef Name = Tok.getRawIdentifier();
      if (AfterDefined) {
        AfterDefined = false;
        if (Names)
          Names->push_back(("defined " + Name).str());
        continue;
      }
      if (Name == "defined") {
        AfterDefined = true;
        continue;
      }
      if (Names)
        Names->push_back(Name.str());
      if (Name == "__CUDA_ARCH__")
        continue;
      std::optional<unsigned> Value = ValueOf ? ValueOf(Name) : std::nullopt;
      if (!Value)
        Pure = false;
      else
        Numbers.push_back(*Value);
      continue;
    }
    if (Tok.is(clang::tok::l_paren) && AfterDefined)
      continue;
    AfterDefined = false;
    if (Tok.is(clang::tok::numeric_constant)) {
      llvm::StringRef Spelling(Tok.getLiteralData(), Tok.getLength());
      unsigned Value;
      if (Spelling.rtrim("uUlL").getAsInteger(0, Value))
        Pure = false;
      else
        Numbers.push_back(Value);
      continue;
    }
    if (!Tok.isOneOf(clang::tok::l_paren, clang::tok::r_paren,
                     clang::tok::exclaim, clang::tok::ampamp,
                     clang::tok::pipepipe, clang::tok::less,
                     clang::tok::lessequal, clang::tok::greater,
                     clang::tok::greaterequal, clang::tok::equalequal,
                     clang::tok::exclaimequal))
      Pure = false;
  }
  if (!Pure)
    return std::nullopt;
  return Numbers;
}

void ArchConditions::add(const ArchConditions &Other) {
  llvm::append_range(Numbers, Other.Numbers);
  Opaque |= Other.Opaque;
  if (NvccOnlyMacro.empty())
    NvccOnlyMacro = Other.NvccOnlyMacro;
}

namespace {

/// The names through which code sees the architecture: __CUDA_ARCH__ and its
/// kin (__CUDA_ARCH_LIST__, __CUDA_ARCH_FEAT_SM90_ALL), CUB's, and libcu++'s
/// target macros (NV_IF_TARGET(NV_PROVIDES_SM_80, ...)).
bool namesTheArchitecture(llvm::StringRef Name) {
  return Name.starts_with("__CUDA_ARCH") || Name == "CUB_PTX_ARCH" ||
         Name == "CUB_PTX_VERSION" || Name.starts_with("NV_PROVIDES_SM_") ||
         Name.starts_with("NV_IS_EXACTLY_SM_") || Name == "NV_IF_TARGET" ||
         Name == "NV_IF_ELSE_TARGET" || Name == "NV_DISPATCH_TARGET";
}

} // namespace

ArchConditions archConditionsIn(llvm::StringRef Text) {
  ArchConditions Found;
  // Cheap for the many files that never name the architecture.
  if (!llvm::any_of(
          llvm::ArrayRef<llvm::StringRef>{"__CUDA_ARCH", "CUB_PTX_", "NV_"},
          [&](llvm::StringRef Word) { return Text.contains(Word); }))
    return Found;
  clang::LangOptions Lang;
  Lang.CPlusPlus = true;
  Lang.CPlusPlus17 = true;
  clang::Lexer Raw(clang::SourceLocation(), Lang, Text.begin(), Text.begin(),
                   Text.end());
  std::vector<clang::Token> Directive;
  auto Judge = [&](llvm::ArrayRef<clang::Token> Tokens) {
    // Tokens[0] is '#', Tokens[1] the directive's name.
    llvm::StringRef Name =
        Tokens.size() > 1 && Tokens[1].is(clang::tok::raw_identifier)
            ? Tokens[1].getRawIdentifier()
            : "";
    bool Names = llvm::any_of(Tokens, [](const clang::Token &T) {
      return T.is(clang::tok::raw_identifier) &&
             namesTheArchitecture(T.getRawIdentifier());
    });
    if (!Names || Name == "ifdef" || Name == "ifndef")
      return;
    // `#define __CUDA_ARCH__ 500` (an editor's hint) gives every device parse
    // one value: it tells no two architectures apart.
    if (Name == "define" && Tokens.size() > 2 &&
        Tokens[2].is(clang::tok::raw_identifier) &&
        Tokens[2].getRawIdentifier() == "__CUDA_ARCH__")
      return;
    if ((Name != "if" && Name != "elif") || Tokens.size() < 3) {
      Found.Opaque = true;
      return;
    }
    // The lexer's locations are offsets into Text: it was given no file.
    unsigned Begin = Tokens[2].getLocation().getRawEncoding();
    unsigned End = Tokens.back().getLocation().getRawEncoding() +
                   Tokens.back().getLength();
    if (auto Numbers = literalComparison(Text.slice(Begin, End)))
      llvm::append_range(Found.Numbers, *Numbers);
    else
      Found.Opaque = true;
  };
  clang::Token Tok;
  bool InDirective = false;
  while (true) {
    Raw.LexFromRawLexer(Tok);
    bool Ends = Tok.is(clang::tok::eof) || Tok.isAtStartOfLine();
    if (InDirective && Ends) {
      Judge(Directive);
      Directive.clear();
      InDirective = false;
    }
    if (Tok.is(clang::tok::eof))
      break;
    if (Tok.isAtStartOfLine() && Tok.is(clang::tok::hash))
      InDirective = true;
    if (InDirective) {
      Directive.push_back(Tok);
      continue;
    }
    if (Tok.is(clang::tok::raw_identifier) &&
        namesTheArchitecture(Tok.getRawIdentifier()))
      Found.Opaque = true;
  }
  return Found;
}

std::vector<std::string>
distinctArchitectures(llvm::ArrayRef<std::string> Archs,
                      const ArchConditions &Conditions) {
  std::vector<std::string> Distinct;
  if (Conditions.Opaque) {
    for (const std::string &Arch : Archs)
      if (!llvm::is_contained(Distinct, Arch))
        Distinct.push_back(Arch);
    return Distinct;
  }
  auto Apart = [&](unsigned A, unsigned B) {
    if (A > B)
      std::swap(A, B);
    return llvm::any_of(Conditions.Numbers,
                        [&](unsigned N) { return A <= N && N <= B; });
  };
  for (const std::string &Arch : Archs) {
    unsigned Value = cudaArchValue(Arch);
    if (llvm::none_of(Distinct, [&](const std::string &Kept) {
          return !Apart(cudaArchValue(Kept), Value);
        }))
      Distinct.push_back(Arch);
  }
  return Distinct;
}

ArchConditions archConditionsOf(const TranslationUnitResult &Result,
                                llvm::ArrayRef<std::string> ToolchainRoots,
                                llvm::StringMap<ArchConditions> &Texts) {
  ArchConditions Conditions = Result.ArchDependence;
  // Where no parse recorded it, the user's files are read as text: a unit
  // that the prefilter skipped.
  std::vector<std::string> UserFiles;
  if (!Result.ArchRecorded)
    for (const FileDigest &Read : Result.Dependencies)
      if (!resolvesUnderAny(Read.Path, ToolchainRoots))
        UserFiles.push_back(Read.Path);
  for (const std::string &File : UserFiles) {
    auto [It, New] = Texts.try_emplace(File);
    if (New) {
      // The lexer wants the buffer's terminating null.
      auto Text = readRegularFile(File, /*IsText=*/true,
                                  /*RequiresNullTerminator=*/true);
      if (Text)
        It->second = archConditionsIn((*Text)->getBuffer());
      else {
        llvm::consumeError(Text.takeError());
        It->second.Opaque = true; // unread: it may tell any two apart
      }
    }
    Conditions.add(It->second);
  }
  return Conditions;
}

} // namespace warpfix
