#include "checks/warp-missing-syncwarp.h"
#include "checks/analysis/Loops.h"
#include "checks/analysis/MaskFix.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warpfix {
namespace {

const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

std::string textOf(SourceRange Range, ASTContext &Ctx) {
  CharSourceRange File = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Range), Ctx.getSourceManager(),
      Ctx.getLangOpts());
  if (File.isInvalid())
    return "";
  return Lexer::getSourceText(File, Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

bool isBarrierStatement(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() &&
         (Callee->getName() == "__syncwarp" ||
          Callee->getName() == "__syncthreads");
}

/// `L op= R;` on a shared element: the statement that the accumulator rewrite
/// of seed 000's listing 8 applies to.
const BinaryOperator *accumulation(const Stmt *S) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(S);
  if (!B || !B->isCompoundAssignmentOp())
    return nullptr;
  return B;
}

/// The statement that stands for S in its block: S itself, or the unbraced
/// `if` (without else) or loop around it.
const Stmt *unitOf(ASTContext &Ctx, const Stmt *S) {
  const Stmt *Parent = parentStmt(Ctx, S);
  if (Parent && isa<CompoundStmt>(Parent))
    return S;
  if (const auto *If = dyn_cast_or_null<IfStmt>(Parent))
    if (If->getThen() == S && !If->getElse() &&
        isa_and_nonnull<CompoundStmt>(parentStmt(Ctx, If)))
      return If;
  return nullptr;
}

/// The rewrite evaluates the target more often and moves the operand before
/// the write: only safe when neither changes anything on its own.
bool changesNothing(const Expr *E) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool Changes = false;
    bool TraversePseudoObjectExpr(PseudoObjectExpr *) { return true; }
    bool VisitBinaryOperator(BinaryOperator *B) {
      Changes |= B->isAssignmentOp();
      return !Changes;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      Changes |= U->isIncrementDecrementOp();
      return !Changes;
    }
    bool VisitCallExpr(CallExpr *) {
      Changes = true;
      return false;
    }
  };
  Finder F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return !F.Changes;
}

/// The range of an expression statement including its semicolon.
CharSourceRange statementRange(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid())
    return Range;
  std::optional<Token> Semi =
      Lexer::findNextToken(Range.getEnd().getLocWithOffset(-1), SM,
                           Ctx.getLangOpts());
  if (!Semi || !Semi->is(tok::semi))
    return CharSourceRange();
  return CharSourceRange::getCharRange(Range.getBegin(), Semi->getEndLoc());
}

} // namespace

void WarpMissingSyncwarpCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                 unless(isExpansionInSystemHeader()))
                        .bind("kernel"),
                    this);
}

void WarpMissingSyncwarpCheck::run(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (Kernel->isDependentContext() || !Kernel->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  SharedAccessAnalysis Analysis(Ctx);
  std::vector<Race> Races = Analysis.racesIn(*Kernel);
  // One finding per writing statement, its races as the evidence.
  std::vector<const Stmt *> Order;
  llvm::DenseMap<const Stmt *, std::vector<const Race *>> ByStatement;
  for (const Race &R : Races) {
    if (!ByStatement.count(R.Write->Statement))
      Order.push_back(R.Write->Statement);
    ByStatement[R.Write->Statement].push_back(&R);
  }
  for (const Stmt *S : Order)
    reportStatement(ByStatement[S], Ctx);
}

void WarpMissingSyncwarpCheck::reportStatement(
    const std::vector<const Race *> &Races, ASTContext &Ctx) {
  // The clearest witness: a race inside the statement itself, if any.
  const Race &First = **llvm::find_if(Races, [&](const Race *R) {
    return R->Other->Statement == R->Write->Statement ||
           R == Races.back();
  });
  const SourceManager &SM = Ctx.getSourceManager();
  int64_t ElementSize =
      Ctx.getTypeSizeInChars(First.Write->Access->getType()).getQuantity();
  std::string Element = First.Write->Array->getName().str() + "[" +
                        std::to_string(ElementSize ? First.Element / ElementSize
                                                   : First.Element) +
                        "]";
  bool Volatile = First.Write->Access->getType().isVolatileQualified();
  std::string Message =
      "lanes of one warp race on shared memory: lane " +
      std::to_string(First.WriterThread % 32) + " writes " + Element +
      " and lane " + std::to_string(First.OtherThread % 32) +
      (First.Other->IsWrite ? " writes" : " reads") +
      " it with no __syncwarp() between them (seed 000, listing 7)";
  if (Volatile)
    Message += "; volatile does not order accesses between lanes";
  FindingBuilder Finding =
      report(SM.getExpansionLoc(First.Write->Access->getBeginLoc()), Message);
  for (const Race *R : Races)
    if (R->Other->Statement != R->Write->Statement)
      Finding.note(SM.getExpansionLoc(R->Other->Access->getBeginLoc()),
                   R->Other->IsWrite ? "the other lane writes it here"
                                     : "the other lane reads it here");

  Membership Lanes =
      context().analyses(Ctx).Members.at(First.Write->Statement);
  if (Lanes.Result == Membership::Unknown) {
    Finding.withoutFix(Lanes.ReasonLoc, "no automatic fix: " + Lanes.Reason);
    if (Lanes.Reason.find("loop") != std::string::npos)
      Finding.note(Lanes.ReasonLoc,
                   "a __syncwarp() in this loop would be reached by a "
                   "different set of lanes on each iteration; make every "
                   "lane run every iteration (a warp-uniform bound, with the "
                   "access guarded inside) and then synchronise");
    return;
  }
  if (!fixChain(First, Races, Finding, Ctx))
    fixWithBarriers(Races, Finding, Ctx);
}

bool WarpMissingSyncwarpCheck::fixChain(const Race &First,
                                        const std::vector<const Race *> &Races,
                                        FindingBuilder &Finding,
                                        ASTContext &Ctx) {
  const Stmt *Statement = First.Write->Statement;
  const BinaryOperator *Accumulate = accumulation(Statement);
  const Stmt *Unit = unitOf(Ctx, Statement);
  if (!Accumulate || !Unit ||
      Accumulate->getLHS()->IgnoreParens() != First.Write->Access ||
      !changesNothing(Accumulate->getLHS()) ||
      !changesNothing(Accumulate->getRHS()))
    return false;
  // Another lane writing the same element: the element is not the lane's own
  // accumulator, and a register cannot stand for it.
  for (const Race *R : Races)
    if (R->Other->IsWrite)
      return false;
  const auto *Block = cast<CompoundStmt>(parentStmt(Ctx, Unit));
  std::string Target = textOf(Accumulate->getLHS()->getSourceRange(), Ctx);
  if (Target.empty())
    return false;
  auto AccumulateIn = [&](const Stmt *U) -> const BinaryOperator * {
    const Stmt *Inner = U;
    if (const auto *If = dyn_cast<IfStmt>(U)) {
      if (If->getElse())
        return nullptr;
      Inner = If->getThen();
    }
    const BinaryOperator *B = accumulation(Inner);
    if (!B || B->getOpcode() != Accumulate->getOpcode() ||
        textOf(B->getLHS()->getSourceRange(), Ctx) != Target ||
        !changesNothing(B->getLHS()) || !changesNothing(B->getRHS()))
      return nullptr;
    return B;
  };
  // The chain: neighbouring accumulations into the same element, with the
  // barriers already between them.
  std::vector<const Stmt *> Body(Block->body_begin(), Block->body_end());
  size_t At = std::find(Body.begin(), Body.end(), Unit) - Body.begin();
  size_t Begin = At, End = At + 1;
  while (Begin > 0 && (AccumulateIn(Body[Begin - 1]) ||
                       isBarrierStatement(Body[Begin - 1])))
    --Begin;
  while (End < Body.size() &&
         (AccumulateIn(Body[End]) || isBarrierStatement(Body[End])))
    ++End;
  while (isBarrierStatement(Body[Begin]))
    ++Begin;
  while (isBarrierStatement(Body[End - 1]))
    --End;

  Membership Lanes = context().analyses(Ctx).Members.at(Body[Begin]);
  if (Lanes.Result == Membership::Unknown)
    return false;
  std::optional<std::string> Mask = emitMask(
      Lanes, Body[Begin]->getBeginLoc(), Finding, maskStyle(), Ctx);
  if (!Mask)
    return true; // emitMask said why
  std::string Acc = "warpfix_acc_" + std::to_string(Ctx.getSourceManager()
                                                        .getExpansionLineNumber(
                                                            Body[Begin]
                                                                ->getBeginLoc()));
  while (Ctx.Idents.find(Acc) != Ctx.Idents.end())
    Acc += "_";
  if (!insertStatementBefore(Body[Begin], "auto " + Acc + " = " + Target + ";",
                             Finding, Ctx)) {
    Finding.withoutFix(Body[Begin]->getBeginLoc(),
                       "no automatic fix: the statement is written by a macro");
    return true;
  }
  std::string Barrier = "__syncwarp(" + *Mask + ");";
  std::string Op = BinaryOperator::getOpcodeStr(Accumulate->getOpcode()).str();
  for (size_t I = Begin; I < End; ++I) {
    const BinaryOperator *B = AccumulateIn(Body[I]);
    if (!B)
      continue;
    std::string Source = textOf(B->getRHS()->getSourceRange(), Ctx);
    CharSourceRange Range = statementRange(B, Ctx);
    if (Source.empty() || Range.isInvalid()) {
      Finding.withoutFix(B->getBeginLoc(), "no automatic fix: the statement "
                                           "is written by a macro");
      return true;
    }
    bool BarrierFollows = I + 1 < Body.size() && isBarrierStatement(Body[I + 1]);
    std::vector<std::string> Parts = {Acc + " " + Op + " " + Source + ";",
                                      Barrier, Target + " = " + Acc + ";"};
    if (!BarrierFollows)
      Parts.push_back(Barrier);
    bool Wrapped = Body[I] != B;
    std::optional<LineLayout> Layout = lineLayoutOf(B, Ctx);
    std::string Separator =
        (!Wrapped && Layout) ? Layout->LineEnd + Layout->Indent : " ";
    std::string Text = llvm::join(Parts, Separator);
    if (Wrapped)
      Text = "{ " + Text + " }";
    Finding.replace(Range, Text);
  }
  Finding.note(Body[Begin]->getBeginLoc(),
               "each lane now reads into a register, all lanes synchronise, "
               "then each writes its own element (seed 000, listing 8)");
  explainMask(Finding, Lanes, Body[Begin]->getBeginLoc());
  return true;
}

bool WarpMissingSyncwarpCheck::fixWithBarriers(
    const std::vector<const Race *> &Races, FindingBuilder &Finding,
    ASTContext &Ctx) {
  auto Ancestors = [&](const Stmt *S) {
    std::vector<const Stmt *> Chain;
    for (; S; S = parentStmt(Ctx, S))
      Chain.push_back(S);
    return Chain;
  };
  std::vector<std::pair<const Stmt *, bool>> Points; // (statement, at end)
  for (const Race *R : Races) {
    const SharedAccess *Earlier = R->Write, *Later = R->Other;
    if (Earlier->Sequence > Later->Sequence)
      std::swap(Earlier, Later);
    if (Earlier->Statement == Later->Statement &&
        Earlier->Sequence + 8 > Later->Sequence) {
      Finding.withoutFix(R->Write->Access->getBeginLoc(),
                         "no automatic fix: the racing read and write are in "
                         "one statement; read into a register, __syncwarp(), "
                         "then write (seed 000, listing 8)");
      return false;
    }
    std::vector<const Stmt *> A = Ancestors(Earlier->Statement);
    std::vector<const Stmt *> B = Ancestors(Later->Statement);
    const CompoundStmt *Common = nullptr;
    const Stmt *ChildA = nullptr, *ChildB = nullptr;
    for (size_t I = 1; I < A.size() && !Common; ++I)
      if (const auto *Block = dyn_cast<CompoundStmt>(A[I]))
        for (size_t J = 1; J < B.size(); ++J)
          if (B[J] == Block) {
            Common = Block;
            ChildA = A[I - 1];
            ChildB = B[J - 1];
            break;
          }
    if (!Common) {
      Finding.withoutFix(R->Write->Access->getBeginLoc(),
                         "no automatic fix: the racing accesses are in "
                         "different functions");
      return false;
    }
    auto Index = [&](const Stmt *S) {
      return std::find(Common->body_begin(), Common->body_end(), S) -
             Common->body_begin();
    };
    if (ChildA != ChildB && Index(ChildA) < Index(ChildB)) {
      Points.push_back({ChildB, false});
      continue;
    }
    // The later access comes first in the text: it belongs to the next
    // iteration, and the barrier goes at the end of the loop body.
    const Stmt *Loop = parentStmt(Ctx, Common);
    if (!Loop || !isLoop(Loop) ||
        Common->body_empty()) {
      Finding.withoutFix(R->Write->Access->getBeginLoc(),
                         "no automatic fix: no single place separates the "
                         "racing accesses");
      return false;
    }
    Points.push_back({Common->body_back(), true});
  }
  for (auto [At, AtEnd] : Points) {
    Membership Lanes = context().analyses(Ctx).Members.at(At);
    if (Lanes.Result == Membership::Unknown) {
      Finding.withoutFix(Lanes.ReasonLoc, "no automatic fix: " + Lanes.Reason);
      return false;
    }
    std::optional<std::string> Mask =
        emitMask(Lanes, At->getBeginLoc(), Finding, maskStyle(), Ctx);
    if (!Mask)
      return false;
    std::string Barrier = "__syncwarp(" + *Mask + ");";
    if (!AtEnd) {
      if (!insertStatementBefore(At, Barrier, Finding, Ctx)) {
        Finding.withoutFix(At->getBeginLoc(),
                           "no automatic fix: the statement is written by a "
                           "macro");
        return false;
      }
      continue;
    }
    const auto *Block = cast<CompoundStmt>(parentStmt(Ctx, At));
    SourceLocation Close = Block->getRBracLoc();
    std::optional<LineLayout> Layout = lineLayoutOf(At, Ctx);
    if (Close.isMacroID() || !Layout) {
      Finding.withoutFix(At->getBeginLoc(),
                         "no automatic fix: the loop body is written on one "
                         "line or by a macro");
      return false;
    }
    // Before the closing brace's line, indented like the body.
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation LineStart = SM.translateLineCol(
        SM.getFileID(Close), SM.getSpellingLineNumber(Close), 1);
    Finding.insertBefore(LineStart, Layout->Indent + Barrier + Layout->LineEnd);
  }
  if (!Points.empty())
    Finding.note(Points.front().first->getBeginLoc(),
                 "a __syncwarp() between the accesses orders them");
  return !Points.empty();
}

} // namespace warpfix
