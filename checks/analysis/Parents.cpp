#include "checks/analysis/Parents.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warpfix {
namespace {

/// The index that parentsOf() answers from on this thread: one translation
/// unit is analysed on one thread from start to end.
thread_local ParentIndex *Current = nullptr;

} // namespace

/// The traversal of clang's ParentMapContext::ParentMap::ASTVisitor (clang
/// 19): the same RecursiveASTVisitor settings and the same overridden
/// traversals, hence the same nodes in the same order. Only what is kept
/// differs.
class ParentIndex::Builder : public RecursiveASTVisitor<Builder> {
public:
  Builder(ParentIndex &Index, Observer *Watcher)
      : Index(Index), Watcher(Watcher) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    addPointer(D);
    if (Watcher)
      Watcher->enter(*D);
    return within(DynTypedNode::create(*D), true, D,
                  [&] { return Base::TraverseDecl(D); });
  }
  bool TraverseAttr(Attr *A) {
    if (!A)
      return true;
    addPointer(A);
    return within(DynTypedNode::create(*A), true, Parent(),
                  [&] { return Base::TraverseAttr(A); });
  }
  bool TraverseTypeLoc(TypeLoc TL) {
    if (!TL)
      return true;
    return within(DynTypedNode::create(TL), false, Parent(),
                  [&] { return Base::TraverseTypeLoc(TL); });
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) {
    if (!NNS)
      return true;
    return within(DynTypedNode::create(NNS), false, Parent(),
                  [&] { return Base::TraverseNestedNameSpecifierLoc(NNS); });
  }
  bool TraverseObjCProtocolLoc(ObjCProtocolLoc Loc) {
    return within(DynTypedNode::create(Loc), false, Parent(),
                  [&] { return Base::TraverseObjCProtocolLoc(Loc); });
  }
  // As clang's visitor: statements through the data-recursion hooks.
  bool dataTraverseStmtPre(Stmt *S) {
    addPointer(S);
    if (Watcher)
      Watcher->enter(*S);
    Stack.push_back({DynTypedNode::create(*S), true, S});
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Stack.pop_back();
    return true;
  }

private:
  using Base = RecursiveASTVisitor<Builder>;

  struct Frame {
    DynTypedNode Node;
    /// A node with pointer identity, or one whose parent is already kept.
    bool Kept;
    /// What a child records as its parent: the declaration or statement
    /// itself, or Node's copy in OtherNodes once a child needed one. Set
    /// when the frame is pushed, where the node's kind is known, rather
    /// than asked of the DynTypedNode for every child.
    Parent AsParent;
  };

  template <typename Traverse>
  bool within(DynTypedNode Node, bool Kept, Parent AsParent,
              Traverse Children) {
    Stack.push_back({Node, Kept, AsParent});
    bool Result = Children();
    Stack.pop_back();
    return Result;
  }

  Parent parentFor(Frame &F) {
    if (F.AsParent.isNull()) {
      Index.OtherNodes.push_back(F.Node);
      F.AsParent = &Index.OtherNodes.back();
    }
    return F.AsParent;
  }

  /// Records the parent of a node with pointer identity about to be entered,
  /// and, first, the parents of the locations between it and the nearest
  /// node above it that is kept: a climb from it passes through them. A
  /// location's subtree is the same wherever it is entered, so the first time
  /// it is entered is also the first time it gets here: its first parent.
  void addPointer(const void *Key) {
    if (Stack.empty())
      return;
    for (size_t I = Stack.size(); I-- > 1 && !Stack[I].Kept;) {
      Index.OtherParents.try_emplace(Stack[I].Node, parentFor(Stack[I - 1]));
      Stack[I].Kept = true;
    }
    Index.PointerParents.try_emplace(Key, parentFor(Stack.back()));
  }

  ParentIndex &Index;
  Observer *Watcher;
  llvm::SmallVector<Frame, 16> Stack;
};

void ParentIndex::buildShowing(Observer &Watcher) {
  assert(!Built && "the index is built once");
  build(&Watcher);
}

void ParentIndex::build(Observer *Watcher) {
  Built = true;
  // Growing the map rehashes every entry and, for a moment, holds the old
  // table and the new. A main file of plain kernels holds one indexed node
  // per three bytes or a little less (templates instantiated from headers
  // add more): reserved for one per two, a file of 4,000 small kernels
  // never grows it.
  const SourceManager &Sources = Ctx.getSourceManager();
  if (std::optional<llvm::MemoryBufferRef> Main =
          Sources.getBufferOrNone(Sources.getMainFileID()))
    PointerParents.reserve(Main->getBufferSize() / 2);
  Builder(*this, Watcher).TraverseAST(Ctx);
}

DynTypedNode ParentIndex::toNode(Parent P) {
  if (const auto *D = P.dyn_cast<const Decl *>())
    return DynTypedNode::create(*D);
  if (const auto *S = P.dyn_cast<const Stmt *>())
    return DynTypedNode::create(*S);
  return *P.get<const DynTypedNode *>();
}

DynTypedNode ParentIndex::firstParent(const DynTypedNode &Node) {
  if (!Built)
    build();
  if (Node.getNodeKind().hasPointerIdentity()) {
    auto It = PointerParents.find(Node.getMemoizationData());
    return It == PointerParents.end() ? DynTypedNode() : toNode(It->second);
  }
  auto It = OtherParents.find(Node);
  return It == OtherParents.end() ? DynTypedNode() : toNode(It->second);
}

ParentIndex::Use::Use(ParentIndex &Index) : Previous(Current) {
  Current = &Index;
}

ParentIndex::Use::~Use() { Current = Previous; }

const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = parentsOf(Ctx, *S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

bool isWithin(ASTContext &Ctx, const Stmt *S, const Stmt *Region) {
  DynTypedNode Node = DynTypedNode::create(*S);
  while (true) {
    if (Node.get<Stmt>() == Region)
      return true;
    DynTypedNodeList Parents = parentsOf(Ctx, Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>())
      return false;
    Node = Parents[0];
  }
}

DynTypedNodeList parentsOf(ASTContext &Ctx, const DynTypedNode &Node) {
  if (!Current || &Current->context() != &Ctx) {
    DynTypedNodeList All = Ctx.getParents(Node);
    if (All.empty())
      return All;
    return All[0];
  }
  DynTypedNode Parent = Current->firstParent(Node);
  if (Parent.getNodeKind().isNone())
    return llvm::ArrayRef<DynTypedNode>();
  return Parent;
}

const FunctionDecl *enclosingFunction(ASTContext &Ctx, const Stmt *S) {
  DynTypedNode Node = DynTypedNode::create(*S);
  while (true) {
    DynTypedNodeList Parents = parentsOf(Ctx, Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    if (const auto *F = Node.get<FunctionDecl>())
      return F;
    if (const auto *Lambda = Node.get<LambdaExpr>())
      return Lambda->getCallOperator();
  }
}

} // namespace warpfix
