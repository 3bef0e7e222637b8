// The static_asserts in src/kernels/types.h pin sizes at compile time; these tests pin the
// offsets the shaders read, field by field, for the structs with more than scalar members.
#include <cstddef>

#include <gtest/gtest.h>

#include "kernels/constraints.h"
#include "kernels/types.h"

using namespace cloth::gpu;

TEST(SharedLayouts, ConstraintStructsArePacked) {
    EXPECT_EQ(offsetof(DistanceConstraint, restLength), 8u);
    EXPECT_EQ(offsetof(DistanceConstraint, param), 12u);
    EXPECT_EQ(offsetof(BendingConstraint, restAngle), 16u);
    EXPECT_EQ(offsetof(BendingConstraint, param), 20u);
    EXPECT_EQ(offsetof(Tether, maxLength), 8u);
    EXPECT_EQ(offsetof(PhantomGroup, count), 4u);
}

TEST(SharedLayouts, Vec4MembersAre16ByteAligned) {
    EXPECT_EQ(offsetof(Motion, u), 16u);
    EXPECT_EQ(offsetof(Motion, v), 32u);
    EXPECT_EQ(offsetof(Attachment, anchor), 0u);
    EXPECT_EQ(offsetof(Attachment, param), 24u);
    EXPECT_EQ(offsetof(ClothSegment, linearDamping), 16u);
    EXPECT_EQ(offsetof(RigidSums, rrOff), 64u);
    EXPECT_EQ(offsetof(RigidMotion, angular), 32u);
    EXPECT_EQ(sizeof(SolveParams), 16u);
}
