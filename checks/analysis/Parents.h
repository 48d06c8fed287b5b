// The first parent of an AST node, as ASTContext::getParents() lists it, from
// an index that costs a fraction of clang's parent map.
//
// clang's map records every node of the traversal scope, type locations
// included, allocates a node for each parent that is not a statement or a
// declaration, and keeps every parent of a shared node: the default argument
// of __shfl (`width = warpSize`) collects one parent per call, each checked
// against all the others. On a file of thousands of small kernels building it
// cost more memory than the parse. warpfix only ever climbs from statements
// and declarations and reads the first parent, so this index walks the same
// traversal (the same RecursiveASTVisitor settings and the same nodes, in the
// same order) but keeps the first parent of each node, and keeps a type or
// name-specifier location only when a statement or declaration lies below
// it, the only way a climb can reach one.
#ifndef WARPFIX_CHECKS_ANALYSIS_PARENTS_H
#define WARPFIX_CHECKS_ANALYSIS_PARENTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PointerUnion.h"
#include <deque>

namespace warpfix {

class ParentIndex {
public:
  /// Nothing is built until the first query; the index then covers Ctx's
  /// traversal scope as it is at that moment, as clang's map would.
  explicit ParentIndex(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  ParentIndex(const ParentIndex &) = delete;
  ParentIndex &operator=(const ParentIndex &) = delete;

  /// The first of Ctx.getParents(Node), or an empty node where that is empty.
  clang::DynTypedNode firstParent(const clang::DynTypedNode &Node);

  clang::ASTContext &context() const { return Ctx; }

  /// Shown each declaration and statement of the index's walk, in pre-order,
  /// as it is indexed: one walk of the unit serves the index and the checks.
  class Observer {
  public:
    virtual ~Observer() = default;
    virtual void enter(const clang::Decl &D) = 0;
    virtual void enter(const clang::Stmt &S) = 0;
  };

  /// Builds the index now rather than on the first query, showing Watcher
  /// every node it indexes.
  void buildShowing(Observer &Watcher);

  /// Makes parentsOf() answer from Index for its context, on this thread,
  /// for as long as the guard lives (one translation unit's analysis).
  class Use {
  public:
    explicit Use(ParentIndex &Index);
    ~Use();
    Use(const Use &) = delete;
    Use &operator=(const Use &) = delete;

  private:
    ParentIndex *Previous;
  };

private:
  class Builder;
  /// A parent: a declaration or a statement as they are; anything else (a
  /// type location, an attribute) in OtherNodes.
  using Parent = llvm::PointerUnion<const clang::Decl *, const clang::Stmt *,
                                    const clang::DynTypedNode *>;
  void build(Observer *Watcher = nullptr);
  static clang::DynTypedNode toNode(Parent P);

  clang::ASTContext &Ctx;
  bool Built = false;
  /// LLVM's pointer hash, (p >> 4) ^ (p >> 9), puts the nodes that the walk
  /// inserts one after another in neighbouring buckets, which is fast; but
  /// the AST's slabs of millions of nodes then land on each other's buckets,
  /// as much as where the allocator put them decides: one unit's index took
  /// from one to two and a half times as long, run to run. Here each 1 KiB
  /// stretch of nodes keeps neighbouring buckets, and the stretches are
  /// scattered by a multiplicative hash.
  struct NodeAddressInfo : llvm::DenseMapInfo<const void *> {
    static unsigned getHashValue(const void *Node) {
      uint64_t X = uint64_t(reinterpret_cast<uintptr_t>(Node)) >> 4;
      uint64_t Chunk = (X >> 6) * 0x9E3779B97F4A7C15ull;
      return unsigned(Chunk >> 32) << 6 | unsigned(X & 63);
    }
  };
  /// Nodes with pointer identity (statements, declarations, attributes).
  llvm::DenseMap<const void *, Parent, NodeAddressInfo> PointerParents;
  /// Type and name-specifier locations that lie above such a node.
  llvm::DenseMap<clang::DynTypedNode, Parent> OtherParents;
  /// Parents that are neither declarations nor statements; a deque, so that
  /// the pointers to them stay valid.
  std::deque<clang::DynTypedNode> OtherNodes;
};

/// Ctx.getParents(Node) cut to its first parent, which is all that warpfix
/// reads of it: answered by the ParentIndex in use for Ctx on this thread,
/// else by clang's parent map.
clang::DynTypedNodeList parentsOf(clang::ASTContext &Ctx,
                                  const clang::DynTypedNode &Node);

template <typename T>
clang::DynTypedNodeList parentsOf(clang::ASTContext &Ctx, const T &Node) {
  return parentsOf(Ctx, clang::DynTypedNode::create(Node));
}

/// The function whose body contains S, or null (a lambda's body counts as
/// its own function; a default member initializer is in none).
const clang::FunctionDecl *enclosingFunction(clang::ASTContext &Ctx,
                                             const clang::Stmt *S);

/// The statement that S's first parent is, or null (a declaration holds S,
/// or nothing does).
const clang::Stmt *parentStmt(clang::ASTContext &Ctx, const clang::Stmt *S);

/// Whether S is Region or lies inside it, within one function.
bool isWithin(clang::ASTContext &Ctx, const clang::Stmt *S,
              const clang::Stmt *Region);

} // namespace warpfix

#endif
