// Who calls a function, and whether that list is the whole story. A caller
// that the list misses (an escaping address, a virtual dispatch, a library
// template that runs a functor) is a caller whose lanes nobody checked.
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

TEST(CallSites, ListsEveryDirectCall) {
  ParsedUnit Unit("static __device__ int f(int v) { return v; }"
                  "__global__ void k(int *p) { p[0] = f(1) + f(2); }"
                  "__global__ void h(int *p) { p[1] = f(3); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl &F = Unit.function("f");
  EXPECT_EQ(3u, Unit.analyses().Calls.of(&F).size());
  EXPECT_FALSE(Unit.analyses().Calls.callersUnseen(&F));
}

TEST(CallSites, AddressTakenIsAnEscape) {
  ParsedUnit Unit("__device__ int f(int v) { return v; }"
                  "__device__ int (*pick)(int) = f;"
                  "__global__ void k(int *p) { p[0] = f(1); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl &F = Unit.function("f");
  EXPECT_TRUE(Unit.analyses().Calls.escapes(&F));
  EXPECT_TRUE(Unit.analyses().Calls.callersUnseen(&F));
}

// cudaLaunchKernel names the kernel's address, but as a launch, with its
// block: the launch is listed, and the kernel does not escape.
TEST(CallSites, KernelPassedToLaunchApiIsALaunch) {
  ParsedUnit Unit("__global__ void k(int *p) {}"
                  "void host(int *p) {"
                  "  void *args[] = {&p};"
                  "  cudaLaunchKernel((const void *)k, 1, 48, args, 0, 0); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl &Kernel = Unit.function("k");
  EXPECT_FALSE(Unit.analyses().Calls.escapes(&Kernel));
  EXPECT_EQ(1u, Unit.analyses().Calls.launchesOf(&Kernel).size());
}

TEST(CallSites, KernelAddressStoredAwayEscapes) {
  ParsedUnit Unit("__global__ void k(int *p) {}"
                  "const void *table[] = {(const void *)k};");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(Unit.analyses().Calls.escapes(&Unit.function("k")));
}

TEST(CallSites, VirtualOverrideRunsWithoutAListedCall) {
  ParsedUnit Unit(
      "struct Base { __device__ virtual int f(int v) { return v; } };"
      "struct Derived : Base {"
      "  __device__ int f(int v) override { return v + 1; } };"
      "__global__ void k(int *p, Base *b) { p[0] = b->f(1); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl *Override = nullptr;
  for (const clang::Decl *D : Unit.context().getTranslationUnitDecl()->decls())
    if (const auto *Record = llvm::dyn_cast<clang::CXXRecordDecl>(D))
      if (Record->getName() == "Derived")
        for (const clang::CXXMethodDecl *Method : Record->methods())
          if (Method->getName() == "f")
            Override = Method;
  ASSERT_NE(nullptr, Override);
  EXPECT_TRUE(CallSites::implicitCallers(Override).has_value());
  EXPECT_TRUE(Unit.analyses().Calls.callersUnseen(Override));
}

TEST(CallSites, DestructorRunsWithoutAListedCall) {
  ParsedUnit Unit("struct Guard { int *p;"
                  "  __device__ ~Guard() { p[0] = 0; } };"
                  "__global__ void k(int *p) { Guard g{p}; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl *Destructor = nullptr;
  for (const clang::Decl *D : Unit.context().getTranslationUnitDecl()->decls())
    if (const auto *Record = llvm::dyn_cast<clang::CXXRecordDecl>(D))
      if (Record->getName() == "Guard")
        Destructor = Record->getDestructor();
  ASSERT_NE(nullptr, Destructor);
  EXPECT_TRUE(CallSites::implicitCallers(Destructor).has_value());
}

TEST(CallSites, ChevronLaunchIsListedWithItsBlock) {
  ParsedUnit Unit("__global__ void k(int *p) {}"
                  "void host(int *p) { k<<<2, 96>>>(p); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const auto &Launches = Unit.analyses().Calls.launchesOf(&Unit.function("k"));
  ASSERT_EQ(1u, Launches.size());
  ASSERT_NE(nullptr, Launches[0].Block);
  // The block is the dim3 that the launch converts 96 to.
  const auto *Dim3 = llvm::dyn_cast<clang::CXXConstructExpr>(
      Launches[0].Block->IgnoreImplicit());
  ASSERT_NE(nullptr, Dim3);
  auto Threads = Dim3->getArg(0)->getIntegerConstantExpr(Unit.context());
  ASSERT_TRUE(Threads.has_value());
  EXPECT_EQ(96, Threads->getExtValue());
}

TEST(CallSites, ArgumentForLinesArgumentsUpWithParameters) {
  ParsedUnit Unit("static __device__ int f(int a, int b) { return a - b; }"
                  "__global__ void k(int *p) { p[0] = f(7, 9); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl &F = Unit.function("f");
  const clang::Expr *Site = &Unit.call("f");
  const clang::Expr *Second = CallSites::argumentFor(Site, F.getParamDecl(1));
  ASSERT_NE(nullptr, Second);
  auto Value = Second->getIntegerConstantExpr(Unit.context());
  ASSERT_TRUE(Value.has_value());
  EXPECT_EQ(9, Value->getExtValue());
}

TEST(CallSites, InstantiatedTemplateIsJudgedInItsInstantiations) {
  ParsedUnit Unit("template <int N> __device__ int f(int v) { return v * N; }"
                  "__global__ void k(int *p) { p[0] = f<3>(1); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl &Pattern = Unit.function("f");
  ASSERT_TRUE(Pattern.isDependentContext());
  EXPECT_TRUE(Unit.analyses().Calls.judgedInInstantiations(&Pattern));
}

} // namespace
} // namespace warpfix::test
