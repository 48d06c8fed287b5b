// Barrier intervals and the __shared__ accesses in them, and
// the pairs of accesses by two lanes of one warp that meet at one location
// with no barrier between them.
//
// The analysis executes the index arithmetic for concrete threads rather than
// reasoning symbolically: loops with countable trip counts are unrolled,
// device functions are entered at their call sites, and each access's index
// and guard are evaluated for every lane of two warps. What cannot be
// evaluated is left out (an unknown index) or taken as possible (an unknown
// guard), so a race is only reported with a concrete pair of lanes.
#ifndef WARPFIX_CHECKS_ANALYSIS_SHAREDACCESSES_H
#define WARPFIX_CHECKS_ANALYSIS_SHAREDACCESSES_H

#include "checks/analysis/WarpAssumptions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace warpfix {

/// Variable bindings of one activation: loop variables fixed to the value of
/// the current unrolled iteration, parameters bound to their call's
/// arguments.
struct Frame {
  const Frame *Caller = nullptr;
  /// The call or construction that entered this function.
  const clang::Expr *Call = nullptr;
  /// The caller's statement that holds Call.
  const clang::Stmt *CallStatement = nullptr;
  /// What `this` stands for in a member function, in the caller's frame:
  /// the object (`slots[i].add(v)`, `slots[i] += v`) or, with ThisIsPointer,
  /// a pointer to it (`p->add(v)`).
  const clang::Expr *This = nullptr;
  bool ThisIsPointer = false;
  llvm::DenseMap<const clang::VarDecl *, int64_t> Fixed;
  /// The loop counters of Fixed whose values the block's size decides (its
  /// init, condition or step read blockDim or gridDim).
  llvm::DenseSet<const clang::VarDecl *> FixedByShape;
  /// The last statement that gave a local integer its value on the path
  /// walked so far (its declaration, `t = e;`, `t ^= 1;`, `++t;`), with the
  /// frame in which that statement ran; a null statement: no value known
  /// (assigned in a branch or a loop).
  struct Definition {
    const clang::Stmt *By = nullptr;
    const Frame *Before = nullptr;
  };
  llvm::DenseMap<const clang::VarDecl *, Definition> Defined;
};

struct Guard {
  const clang::Expr *Condition;
  bool Negated;
  const Frame *Context;
  /// A switch's case: the lanes whose Condition has one of these values
  /// (those of the case labels that lead here without a break).
  bool IsCase = false;
  llvm::SmallVector<int64_t, 4> Cases = {};
  /// The default label reaches here too: also the values of no label.
  bool OrNoLabel = false;
  llvm::SmallVector<int64_t, 4> Labels = {};
};

struct SharedAccess {
  const clang::Expr *Access;   ///< the lvalue naming the element
  const clang::VarDecl *Array; ///< the __shared__ variable behind it
  /// The element index, as terms to evaluate and add up (scaled by Scale).
  struct Term {
    const clang::Expr *Index;
    const Frame *Context;
    int64_t Scale;
    /// The elements of the array dimension that Index selects in, where
    /// its type says (0 where not): a thread whose index falls outside it
    /// runs in a block larger than the code was written for.
    int64_t Extent = 0;
  };
  std::vector<Term> Terms;
  /// Bytes added to the terms' sum: the offset of a field (`slots[i].flag`).
  int64_t Offset = 0;
  /// How many bytes from the element's offset the access covers, so a store
  /// to a whole struct meets a read of one of its fields.
  int64_t Bytes = 0;
  bool IsWrite;
  /// Any byte of Array, which this analysis cannot narrow down: a call it
  /// does not follow that gets a pointer or reference into Array (Access is
  /// the call, or the construction of an object whose destructor it is), or
  /// a pointer parameter that its function moves.
  bool AnyElement = false;
  /// What a plain assignment stores (`s = 0`), else null.
  const clang::Expr *Stored = nullptr;
  /// The statement the access belongs to, in the function it is written in.
  const clang::Stmt *Statement;
  /// The kernel's own statement during which the access is made: Statement,
  /// or the statement of the kernel that calls the function holding it.
  const clang::Stmt *KernelStatement;
  std::vector<Guard> Guards;
  /// Position in the unrolled program, to tell iterations apart.
  unsigned Sequence;
};

/// Which lanes a barrier orders: those of its mask that its guards let
/// through, each with the lanes of its own tile.
struct BarrierReach {
  uint32_t Mask = ~0u;
  /// A mask that is not a constant, and its value for each thread, where
  /// known (0 where not: it orders nothing for that thread).
  const clang::Expr *MaskExpr = nullptr;
  std::vector<uint32_t> ThreadMasks;
  unsigned TileSize = 32;
  std::vector<Guard> Guards;
  /// Orders every lane of every thread modelled: it closes a barrier
  /// interval.
  bool Whole = true;
  /// A barrier of the whole block (__syncthreads(), bar.sync, a thread
  /// block's or grid's sync()), or one whose threads only its making names
  /// (libcu++'s, a named barrier's arrival): it orders threads of different
  /// warps, which no __syncwarp() does.
  bool OfBlock = false;
};

struct Race {
  const SharedAccess *Write;
  const SharedAccess *Other; ///< a read, or another write
  int64_t WriterThread, OtherThread, Element;
  /// Threads of different warps meet at one element through the same two
  /// accesses too: a block-level race that no __syncwarp() orders. Then
  /// AcrossWriter writes AcrossElement and AcrossOther touches it (linear thread
  /// indices, in the launched block, or in the default model of two warps).
  bool AcrossWarps = false;
  int64_t AcrossWriter = 0, AcrossOther = 0, AcrossElement = 0;
  /// How many threads the modelled block has, and its shape where it has
  /// rows (a kernel that reads threadIdx.y, with no launch in sight).
  int64_t ModelThreads = 0;
  BlockSize ModelShape = {0, 1, 1};
  /// ModelShape is the size of a launch, not a model of an unseen one.
  bool FromLaunch = false;
  /// In a model of an unseen launch, the elements or guards of an access of
  /// the pair depend on the block's size (blockDim, gridDim): another size
  /// may make other threads meet.
  bool ShapeDependent = false;
};

class SharedAccessAnalysis {
public:
  explicit SharedAccessAnalysis(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Block sizes in x to model a kernel with no launch in sight: two warps,
  /// enough to tell races within a warp from those across warps and cheap;
  /// and the largest block, whose later warps may run code that the first
  /// two skip (`if (threadIdx.x >= 64)`).
  static constexpr int64_t TwoWarps = 64, LargestBlock = 1024;

  /// The races between lanes of one warp inside the kernel K, including
  /// device functions it calls. With the block size of its launches, the
  /// threads are those of a block of that shape, so a 2-D tile's rows are
  /// modelled; without, a block of Unlaunched threads in x.
  std::vector<Race> racesIn(const clang::FunctionDecl &Kernel,
                            std::optional<BlockSize> Launched,
                            int64_t Unlaunched = TwoWarps);

  /// Bounds the work of the next racesIn to about Evaluations steps of
  /// evaluating an expression for a thread; past it, racesIn gives up, says
  /// so with exhausted(), and reports no race.
  void limitWork(size_t Evaluations) { Budget = Evaluations; }
  bool exhausted() const { return Exhausted; }
  size_t evaluations() const { return Evaluations; }

  /// The value of E for the thread with linear index Tid under Context, if
  /// known.
  std::optional<int64_t> evaluate(const clang::Expr *E, const Frame *Context,
                                  int64_t Tid, unsigned Depth = 0);

  /// Per warp, per access, the element each lane touches, if any: views of
  /// what elementsOf keeps (a copy per interval cost more memory than the
  /// rest of the analysis on unrolled code).
  using Lanes = std::vector<std::optional<int64_t>>;
  using Touched = std::vector<std::vector<const Lanes *>>;

  /// Where, in the last racesIn's model, threads of different warps meet
  /// through the accesses Write and Other made during the kernel's
  /// statements WriteStatement and OtherStatement in one barrier interval:
  /// the writer, the other thread and the element.
  std::optional<std::tuple<int64_t, int64_t, int64_t>>
  meetAcrossWarps(const clang::Expr *Write, const clang::Stmt *WriteStatement,
                  const clang::Expr *Other, const clang::Stmt *OtherStatement);

  /// In the last racesIn's model, the pairs of accesses through which
  /// threads of different warps meet at one element with no barrier of the
  /// whole block between them: a __syncwarp() does not part them. One
  /// witness per pair of accesses made during a pair of kernel statements,
  /// whichever comes first. Nothing where the walk gave up.
  std::vector<Race> racesAcrossWarps();
  /// Whether a thread of the last racesAcrossWarps indexed outside an
  /// array's dimension.
  bool indexedOutside() const { return IndexedOutside; }

private:
  struct GuardValue {
    int64_t Value = 0;
    uint32_t Evaluations = 0;
    bool Known = false, HasValue = false, ReadsShape = false;
  };
  /// A guard's values: one for every thread where its evaluation read none
  /// (most do: a loop's bound), else one per thread.
  struct GuardValues {
    GuardValue ForEveryThread;
    std::vector<GuardValue> ByThread;
  };
  struct Event {
    std::optional<SharedAccess> Access; ///< empty: a barrier
    BarrierReach Reach;
  };
  std::optional<int64_t> evaluateExpression(const clang::Expr *E,
                                            const Frame *Context, int64_t Tid,
                                            unsigned Depth);
  /// Whether Evaluate's evaluations read the block's size; ReadShape is
  /// left as it was.
  bool readsShape(llvm::function_ref<void()> Evaluate);
  /// The barrier intervals of the walk, as ranges [first, second) of
  /// Events: no barrier inside one orders every lane.
  std::vector<std::pair<size_t, size_t>> intervals() const;
  /// The same, closed only by barriers of the block (OfBlock), wherever
  /// they stand.
  std::vector<std::pair<size_t, size_t>> blockIntervals() const;
  /// intervals() of the last walk, which meetAcrossWarps asks for each race.
  std::vector<std::pair<size_t, size_t>> Intervals;
  /// The elements the accesses of Interval touch, per warp and lane, and
  /// for each access its pattern number and whether the block's size
  /// decided them (ByShape).
  /// InBlockZero: the lanes of the block of index 0 (OfBlockZero), less
  /// those whose index falls outside its array dimension.
  Touched touched(const std::vector<const SharedAccess *> &Interval,
                  std::vector<unsigned> &Pattern, std::vector<bool> &ByShape,
                  bool InBlockZero = false);
  /// What each access touches, per warp and lane, evaluated once per model
  /// for the race search and meetAcrossWarps both.
  struct AccessElements {
    std::vector<Lanes> ByWarp;
    unsigned Pattern;
    bool ReadsShape;
  };
  const AccessElements &elementsOf(const SharedAccess &A,
                                   bool InBlockZero = false);
  /// The elements that the lanes of Warp touch through A, if any.
  std::vector<std::optional<int64_t>>
  lanesOf(const SharedAccess &A, int64_t Warp, bool InBlockZero = false);
  /// Whether no index of A falls outside its array dimension for thread
  /// Tid, where both are known.
  bool inBounds(const SharedAccess &A, int64_t Tid);
  /// Whether F, or a function it calls, has a barrier of the block: a call
  /// too deep to be followed still parts the block's intervals.
  bool reachesBarrier(const clang::FunctionDecl &F);
  llvm::DenseMap<const clang::FunctionDecl *, bool> BarrierCallers;
  void addOpaqueCall(const clang::CallExpr &Call, const Frame *Context,
                     const std::vector<Guard> &Guards, const clang::Stmt *Leaf);
  /// Files an access with where it is made: its statement, the kernel's
  /// statement, its guards and its place in the walk.
  void record(SharedAccess A, const Frame *Context,
              const std::vector<Guard> &Guards, const clang::Stmt *Leaf);
  void addOpaqueUse(llvm::ArrayRef<const clang::Expr *> Passed,
                    const clang::Expr &Use, const Frame *Context,
                    const std::vector<Guard> &Guards, const clang::Stmt *Leaf);
  void destroyLocals(const clang::CompoundStmt &Block, const Frame *Context,
                     const std::vector<Guard> &Guards);
  void addBarrier(BarrierReach Reach, const std::vector<Guard> &Guards,
                  const Frame *Context = nullptr);
  bool ballotOfReachingLanes(const clang::Expr *Mask,
                             const std::vector<Guard> &Guards);
  std::optional<int64_t> ballotOf(const clang::CallExpr &Call,
                                  const Frame *Context, int64_t Tid,
                                  unsigned Depth);
  /// Whether a barrier among Partial, between the accesses A and B in the
  /// program, orders thread TA's access with thread TB's.
  bool orderedBetween(const std::vector<size_t> &Partial,
                      const SharedAccess &A, int64_t TA,
                      const SharedAccess &B, int64_t TB);
  /// Whether no guard of Guards is known to keep thread Tid out.
  /// Values: where each guard's values are remembered (guardValuesOf),
  /// to spare a lookup per guard and thread.
  bool passes(const std::vector<Guard> &Guards, int64_t Tid,
              llvm::ArrayRef<GuardValues *> Values = {});
  void walk(const clang::Stmt *S, const Frame *Context,
            std::vector<Guard> &Guards, unsigned Depth);
  void walkExpression(const clang::Stmt *S, const Frame *Context,
                      std::vector<Guard> &Guards, const clang::Stmt *Leaf,
                      unsigned Depth);
  void walkLoop(const clang::Stmt *Loop, const Frame *Context,
                std::vector<Guard> &Guards, unsigned Depth);
  /// A switch's body, each statement under the case labels that reach it;
  /// false where its labels are not all statements of the body itself.
  bool walkCases(const clang::SwitchStmt &Switch, const Frame *Context,
                 std::vector<Guard> &Guards, unsigned Depth);
  /// Where in shared memory the lvalue E lies, or, with AsPointer, where
  /// the pointer E points.
  bool resolve(const clang::Expr *E, const Frame *Context,
               SharedAccess &Out, unsigned Depth, bool AsPointer = false);
  void addAccess(const clang::Expr *Lvalue, bool IsWrite, const Frame *Context,
                 const std::vector<Guard> &Guards, const clang::Stmt *Leaf,
                 const clang::Expr *Stored = nullptr);
  bool storeTheSameConstant(const SharedAccess &A, const SharedAccess &B);
  /// The constant that E stores, if clang's evaluator finds one: asked once
  /// per expression, since the race search compares every pair of stores
  /// in every warp.
  const std::optional<clang::APValue> &storedConstant(const clang::Expr *E);
  const Frame *newFrame(Frame F);
  std::vector<Race> findRaces();
  bool executes(const SharedAccess &A, int64_t Tid,
                llvm::ArrayRef<GuardValues *> Values = {});
  /// A guard's condition in thread Tid, as evaluate gives it; Values: where
  /// its values are remembered, if already looked up.
  std::optional<int64_t> guardValue(const Guard &G, int64_t Tid,
                                    GuardValues *Values = nullptr);
  GuardValues &guardValues(const Guard &G);
  /// Where each guard of Guards has its values remembered (null for one
  /// with no condition); none before the walk ends.
  std::vector<GuardValues *> guardValuesOf(const std::vector<Guard> &Guards);
  std::optional<int64_t> element(const SharedAccess &A, int64_t Tid);
  /// A remembered value, charged the evaluations it first cost (Cost) and
  /// the block-size flag it raised, so the budget runs out exactly where a
  /// new evaluation would have made it.
  std::optional<int64_t> remembered(std::optional<int64_t> Value, size_t Cost,
                                    bool ReadsShape);
  /// The value of one term of an element's index in thread Tid.
  std::optional<int64_t> termValue(const SharedAccess::Term &T, int64_t Tid);

  /// A local variable whose only value is its initializer.
  bool hasSingleValue(const clang::VarDecl *Var);
  /// A local or parameter that nothing in its function stores to, and
  /// whose address is not taken.
  bool neverReassigned(const clang::VarDecl *Var);
  /// A local integer whose value the walk can follow statement by
  /// statement: every use of it is one the memory model understands, and
  /// its function has no goto to jump back over a store.
  bool isTracked(const clang::VarDecl *Var);
  /// The tracked variables S assigns anywhere inside it.
  llvm::SmallVector<const clang::VarDecl *, 4> assignedIn(const clang::Stmt *S);
  /// Before, with Vars' values unknown.
  const Frame *withUnknown(const Frame *Before,
                           llvm::ArrayRef<const clang::VarDecl *> Vars);
  /// The values that the statement S gives tracked locals, where S does
  /// nothing else to them; none where S stores one in any other way.
  std::optional<llvm::SmallVector<
      std::pair<const clang::VarDecl *, Frame::Definition>, 4>>
  definitionsBy(const clang::Stmt *S);
  std::optional<int64_t> evaluateDefinition(const clang::VarDecl *Var,
                                            const Frame::Definition &D,
                                            int64_t Tid, unsigned Depth);

  clang::ASTContext &Ctx;
  std::optional<BlockSize> Block;
  /// The threads modelled: the launched block's, rounded up to whole warps,
  /// or the default model's two warps.
  int64_t Threads = 64;
  /// Evaluations allowed in one racesIn (0: no bound), and how many it made.
  size_t Budget = 0, Evaluations = 0;
  bool Exhausted = false;
  /// Evaluating a guard: blockIdx is unknown there.
  bool InGuard = false;
  /// Guards read blockIdx as 0, instead of as unknown: every launch has the
  /// block of index 0, and a race between two of its threads is one. The
  /// race search within warps keeps blockIdx unknown, since its fixes must
  /// order every block.
  bool OfBlockZero = false;
  /// An evaluation read blockDim or gridDim, or a counter they decide.
  bool ReadShape = false;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::DenseSet<const clang::VarDecl *>>
      ReassignedIn;
  /// Per function, the locals that may not be tracked, or none for a
  /// function with a goto (where nothing is).
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::optional<llvm::DenseSet<const clang::VarDecl *>>>
      UntrackedIn;
  llvm::DenseMap<const clang::Expr *, std::optional<int64_t>> Constants;
  llvm::DenseMap<const clang::Expr *, std::optional<clang::APValue>>
      StoredConstants;
  /// After the walk, each access asks its guards for every thread, and the
  /// accesses of one block share them: unrolled code asks each condition
  /// hundreds of times. A remembered value is charged the evaluations it
  /// cost, so the budget runs out exactly where it would have; one that
  /// read no thread is every thread's.
  bool RememberGuards = false;
  /// Per condition, frame and OfBlockZero.
  llvm::DenseMap<std::tuple<const clang::Expr *, const Frame *, unsigned>,
                 std::unique_ptr<GuardValues>>
      RememberedGuards;
  /// Most terms of an element's index read no thread (a loop's counter, a
  /// chain of definitions from constants), yet were evaluated again for each
  /// of up to 1,024 threads: their value is kept, per term and the two
  /// flags that change it, and charged as a guard's. ReadsThread: evaluated
  /// anew for each thread.
  struct TermValue {
    std::optional<int64_t> Value;
    size_t Evaluations = 0;
    bool ReadsShape = false, ReadsThread = false;
  };
  llvm::DenseMap<std::tuple<const clang::Expr *, const Frame *, unsigned>,
                 TermValue>
      TermValues;
  /// The evaluation under way read the thread: threadIdx, or a ballot of
  /// the thread's warp.
  bool ReadThread = false;
  std::deque<Frame> Frames;
  std::vector<Event> Events;
  /// For meetAcrossWarps, asked once per race and model after the walk: the
  /// events of each access made during each kernel statement.
  std::map<std::pair<const clang::Expr *, const clang::Stmt *>,
           std::vector<size_t>>
      EventsOf;
  llvm::DenseMap<const SharedAccess *, AccessElements> TouchedBy,
      TouchedInBlockZeroBy;
  /// A lane of racesAcrossWarps indexed outside an array's dimension.
  bool IndexedOutside = false;
  /// Where threads of different warps meet through two accesses depends
  /// only on the elements each lane touches: unrolled code makes thousands
  /// of pairs of accesses that touch the same ones. Each access's elements,
  /// over all warps, are named by a number, and each meeting is found once.
  using Meeting = std::optional<std::tuple<int64_t, int64_t, int64_t>>;
  Meeting meetAcrossOnce(const Touched &ByWarp,
                         const std::vector<const SharedAccess *> &Interval,
                         size_t W, size_t O, unsigned PatternW,
                         unsigned PatternO);
  unsigned patternOf(std::vector<std::optional<int64_t>> Elements);
  std::map<std::vector<std::optional<int64_t>>, unsigned> Patterns;
  llvm::DenseMap<std::tuple<unsigned, int64_t, unsigned, unsigned, int64_t>,
                 Meeting>
      Meetings;
};

/// The races of a kernel over every block shape that it may run in: each
/// size that its launches give, and where a launch may have another (none is
/// in sight, one cannot be evaluated, its address escapes), models of blocks
/// of any shape. A block of two warps in x finds most races cheaply; the
/// largest block's later warps may run code that the first two skip
/// (`if (threadIdx.x >= 64)`); and where the kernel, or a function it
/// calls, names threadIdx.y or z (or blockDim's), blocks whose second warp
/// is the second row or layer (rows of 32 and of 64 threads, in two warps
/// and in the largest block) show the warps that share an x. A kernel that names neither is taken to be
/// launched in x only. A race seen in several shapes keeps the first
/// witness, but one that threads of different warps make in any shape is a
/// block-level race: no __syncwarp() fixes it.
class BlockModels {
public:
  /// LargestBudget bounds the models of 1024-thread blocks together, in
  /// evaluations of an expression for a thread; they are not tried where
  /// the first is predicted to pass it.
  BlockModels(clang::ASTContext &Ctx, size_t LargestBudget)
      : Ctx(Ctx), LargestBudget(LargestBudget) {}
  std::vector<Race> racesIn(const clang::FunctionDecl &Kernel,
                            const WarpAssumptions::Launches &Launches);
  /// After racesIn, the races between threads of different warps in its
  /// models (SharedAccessAnalysis::racesAcrossWarps), the first witness of
  /// each pair kept: those of launches, and for launches not in sight those
  /// of blocks in x only, since rows of a guessed width repeat indices that
  /// the kernel's own width keeps apart; none through an access to any
  /// element, which is unknown rather than a race.
  std::vector<Race> racesAcrossWarps();
  /// Whether a model of the largest block was not made, or gave up.
  bool largestSkipped() const { return LargestSkipped; }
  /// Whether blocks with rows were modelled for launches not in sight: no
  /// model proves that threads of different warps never meet in rows of
  /// some other width.
  bool rowsModelled() const { return RowsModelled; }

private:
  /// The races of the models of blocks of any shape.
  std::vector<Race> racesOfAnyShape(const clang::FunctionDecl &Kernel);
  /// Runs one model and keeps it.
  std::vector<Race> model(const clang::FunctionDecl &Kernel,
                          std::optional<BlockSize> Block, bool FromLaunch,
                          bool Largest);
  clang::ASTContext &Ctx;
  size_t LargestBudget, LargestSpent = 0;
  bool LargestSkipped = false;
  bool RowsModelled = false;
  /// The races point into the analyses that found them.
  std::deque<SharedAccessAnalysis> Models;
  struct Shape {
    BlockSize Size;
    bool FromLaunch;
  };
  std::vector<Shape> Shapes;
};

} // namespace warpfix

#endif
