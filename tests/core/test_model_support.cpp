// The one table of what each model runs on each backend (core/model_support.h): every model and
// feature against the list written out here by hand, and the one message format.
#include <gtest/gtest.h>

#include <string>

#include "core/model_support.h"

namespace cloth {
namespace {

ModelFeatures plain(ClothModel model) {
    ModelFeatures f;
    f.model = model;
    return f;
}

bool runs(const ModelFeatures& f, SolverBackend b) { return !unsupported(f, b).has_value(); }

constexpr ClothModel kModels[] = {ClothModel::Xpbd, ClothModel::MassSpring, ClothModel::Projective,
                                  ClothModel::Fem};

TEST(ModelSupport, EveryModelRunsItsPlainSceneWhereItIsBuilt) {
    for (ClothModel m : kModels) {
        SCOPED_TRACE(clothModelName(m));
        EXPECT_TRUE(runs(plain(m), SolverBackend::Cpu));
        // The implicit FEM is the CPU reference's alone, and so is PD's direct step (iteration
        // gs, the default; below).
        EXPECT_EQ(runs(plain(m), SolverBackend::Gpu),
                  m != ClothModel::Fem && m != ClothModel::Projective);
    }
}

TEST(ModelSupport, SelfCollisionPhantomsAndPbdModeAreXpbdsAlone) {
    for (ClothModel m : kModels)
        for (SolverBackend b : {SolverBackend::Cpu, SolverBackend::Gpu}) {
            SCOPED_TRACE(std::string(clothModelName(m)) + " on the " + solverBackendName(b));
            if (m == ClothModel::Fem && b == SolverBackend::Gpu) continue;  // the model itself
            const bool xpbd = m == ClothModel::Xpbd;
            auto plainOn = [&](ClothModel model) {  // PD on the GPU: its Jacobi step
                ModelFeatures g = plain(model);
                if (model == ClothModel::Projective) g.scheme = IterationScheme::Jacobi;
                return g;
            };
            ModelFeatures f = plainOn(m);
            f.selfCollision = true;
            EXPECT_EQ(runs(f, b), xpbd);
            f = plainOn(m);
            f.phantoms = true;
            EXPECT_EQ(runs(f, b), xpbd);
            f = plainOn(m);
            f.mode = SolverMode::Pbd;
            EXPECT_EQ(runs(f, b), xpbd);
        }
}

TEST(ModelSupport, IterationSchemesAndTheSequentialSelfOrder) {
    // FEM solves each step by conjugate gradients: Gauss-Seidel (the default) only.
    ModelFeatures fem = plain(ClothModel::Fem);
    fem.scheme = IterationScheme::Jacobi;
    EXPECT_FALSE(runs(fem, SolverBackend::Cpu));
    // PD: gs is the direct step (the CPU's), jacobi and chebyshev the Jacobi step (both).
    ModelFeatures pd = plain(ClothModel::Projective);
    EXPECT_FALSE(runs(pd, SolverBackend::Gpu));
    for (IterationScheme s : {IterationScheme::Jacobi, IterationScheme::Chebyshev}) {
        pd.scheme = s;
        EXPECT_TRUE(runs(pd, SolverBackend::Cpu));
        EXPECT_TRUE(runs(pd, SolverBackend::Gpu));
    }
    // XPBD and mass-spring take every scheme.
    for (ClothModel m : {ClothModel::Xpbd, ClothModel::MassSpring})
        for (IterationScheme s : {IterationScheme::Jacobi, IterationScheme::Chebyshev}) {
            ModelFeatures f = plain(m);
            f.scheme = s;
            EXPECT_TRUE(runs(f, SolverBackend::Cpu));
            EXPECT_TRUE(runs(f, SolverBackend::Gpu));
        }
    // The sequential self-contact order is the CPU reference's.
    ModelFeatures xpbd = plain(ClothModel::Xpbd);
    xpbd.selfCollision = true;
    xpbd.sequentialSelfOrder = true;
    EXPECT_TRUE(runs(xpbd, SolverBackend::Cpu));
    EXPECT_FALSE(runs(xpbd, SolverBackend::Gpu));
}

TEST(ModelSupport, OneMessageFormatNamingModelBackendFeatureAndRemedy) {
    ModelFeatures f = plain(ClothModel::MassSpring);
    f.selfCollision = true;
    EXPECT_EQ(*unsupported(f, SolverBackend::Cpu),
              "model mass_spring on the CPU reference: self-collision is not built for it; model "
              "xpbd runs it");
    EXPECT_EQ(*unsupported(plain(ClothModel::Fem), SolverBackend::Gpu),
              "model fem on the GPU: the model is not built for it; the CPU reference runs it "
              "(--backend cpu)");
    ModelFeatures pd = plain(ClothModel::Projective);
    pd.scheme = IterationScheme::GaussSeidel;
    const std::string m = *unsupported(pd, SolverBackend::Gpu);
    EXPECT_EQ(m.rfind("model pd on the GPU: iteration gs (the direct LDLT global step) is not built "
                      "for it; ", 0),
              0u)
        << m;
}

TEST(ModelSupport, FeaturesComeFromTheScenesSettings) {
    SimSettings sim;
    sim.model = ClothModel::Projective;
    sim.mode = SolverMode::Pbd;
    sim.iteration.scheme = IterationScheme::Chebyshev;
    sim.selfCollision = SelfCollisionSettings{};
    sim.selfCollision->order = SelfCollisionSettings::Order::Sequential;
    const ModelFeatures f = modelFeatures(sim, true);
    EXPECT_EQ(f.model, ClothModel::Projective);
    EXPECT_EQ(f.mode, SolverMode::Pbd);
    EXPECT_EQ(f.scheme, IterationScheme::Chebyshev);
    EXPECT_TRUE(f.selfCollision);
    EXPECT_TRUE(f.sequentialSelfOrder);
    EXPECT_TRUE(f.phantoms);
    EXPECT_FALSE(modelFeatures(SimSettings{}).selfCollision);
}

}  // namespace
}  // namespace cloth
