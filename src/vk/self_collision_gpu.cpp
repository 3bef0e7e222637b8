#include "vk/self_collision_gpu.h"

#include "core/error.h"
#include "self_contacts.h"  // shaders/shared: TRIANGLE_SEGMENT_SHIFT (feature_contacts.h)

namespace cloth::vk {

namespace {

constexpr std::uint32_t kWorkgroup = 64;
constexpr std::uint32_t kSortBlock = 256;  // SORT_BLOCK of self_collide.comp

enum Job : std::uint32_t {
    kBoxes = 0, kReduce, kCodes, kSortCount, kSortScan, kSortScatter, kNodes, kFit
};

struct Push {
    std::uint32_t job;
    std::uint32_t count;
    std::uint32_t shift;
    std::uint32_t blocks;
    float margin;
    std::uint32_t flip;
    std::uint32_t pad0, pad1;
};
static_assert(sizeof(Push) == 32);

constexpr std::uint32_t kBindings = 19;

std::uint32_t groupsOf(std::uint64_t n) {
    return static_cast<std::uint32_t>((n + kWorkgroup - 1) / kWorkgroup);
}

}  // namespace

GpuSelfCollision::GpuSelfCollision(const Context& ctx, const PreparedCloth& p,
                                   const Buffer& positions, const Buffer& predicted,
                                   const Buffer& triangles)
    : ctx_(&ctx),
      kernel_(ctx, "self_collide.comp", kBindings, sizeof(Push), kWorkgroup),
      fitKernel_(ctx, "self_collide.comp", kBindings, sizeof(Push), 1) {
    CLOTH_ASSERT(p.sim.selfCollision && !p.triangles.empty());
    CLOTH_ASSERT(p.triangleFeatureInfo.size() == p.triangles.size());
    const auto n = static_cast<std::uint32_t>(p.triangles.size());
    triangles_ = n;
    groups_ = groupsOf(n);
    sortBlocks_ = (n + kSortBlock - 1) / kSortBlock;
    margin_ = p.sim.selfCollision->margin;
    const std::uint64_t nodes = 2ull * n - 1;
    OneShot once(ctx, "self-collision upload");
    start_ = deviceBuffer(ctx, 16ull * p.positions.size(), "self start");
    triInfo_ = deviceBuffer(ctx, 4ull * n, "self triangle info");
    upload(ctx, once, triInfo_, p.triangleFeatureInfo.data(), 4ull * n);
    std::vector<float> thickness(n);
    for (std::uint32_t i = 0; i < n; ++i)
        thickness[i] = p.segments[p.triangleFeatureInfo[i] >> gpu::TRIANGLE_SEGMENT_SHIFT].thickness;
    triThickness_ = deviceBuffer(ctx, 4ull * n, "self triangle thickness");
    upload(ctx, once, triThickness_, thickness.data(), 4ull * n);
    tight_ = deviceBuffer(ctx, 32ull * n, "self tight boxes");
    boxes_ = deviceBuffer(ctx, 32ull * n, "self boxes");
    partials_ = deviceBuffer(ctx, 32ull * groups_, "self partial boxes");
    scene_ = deviceBuffer(ctx, 32, "self scene box");
    codes_ = deviceBuffer(ctx, 4ull * n, "lbvh codes");
    order_ = deviceBuffer(ctx, 4ull * n, "lbvh order");
    codes2_ = deviceBuffer(ctx, 4ull * n, "lbvh codes 2");
    order2_ = deviceBuffer(ctx, 4ull * n, "lbvh order 2");
    histograms_ = deviceBuffer(ctx, 4ull * 256 * sortBlocks_, "lbvh histograms");
    nodes_ = deviceBuffer(ctx, sizeof(gpu::LbvhNode) * nodes, "lbvh nodes");
    parent_ = deviceBuffer(ctx, 4 * nodes, "lbvh parents");
    rangeEnd_ = deviceBuffer(ctx, 4 * nodes, "lbvh range ends");
    arrival_ = deviceBuffer(ctx, 4 * nodes, "lbvh arrivals");
    const_cast<ComputeKernel&>(kernel_).bind(
        {&positions, &start_, &predicted, &triangles, &triInfo_, &triThickness_, &tight_,
         &boxes_, &partials_, &scene_, &codes_, &order_, &codes2_, &order2_, &histograms_,
         &nodes_, &parent_, &rangeEnd_, &arrival_});
    const_cast<ComputeKernel&>(fitKernel_).bind(
        {&positions, &start_, &predicted, &triangles, &triInfo_, &triThickness_, &tight_,
         &boxes_, &partials_, &scene_, &codes_, &order_, &codes2_, &order2_, &histograms_,
         &nodes_, &parent_, &rangeEnd_, &arrival_});
}

void GpuSelfCollision::dispatch(VkCommandBuffer cb, std::uint32_t job, std::uint32_t groups,
                                std::uint32_t shift, std::uint32_t flip) const {
    Push push{job, triangles_, shift, job == kReduce ? groups_ : sortBlocks_, margin_, flip, 0, 0};
    kernel_.dispatch(cb, &push, groups);
    computeBarrier(cb);
}

void GpuSelfCollision::recordBuild(VkCommandBuffer cb) const {
    const std::uint32_t n = triangles_;
    dispatch(cb, kBoxes, groups_);
    dispatch(cb, kReduce, 1);
    dispatch(cb, kCodes, groups_);
    // Four stable passes of 8 bits, ping-pong: the sorted keys end in codes/order.
    for (std::uint32_t pass = 0; pass < 4; ++pass) {
        const std::uint32_t flip = pass % 2;
        dispatch(cb, kSortCount, groupsOf(sortBlocks_), 8 * pass, flip);
        dispatch(cb, kSortScan, 1, 8 * pass, flip);
        dispatch(cb, kSortScatter, groupsOf(sortBlocks_), 8 * pass, flip);
    }
    dispatch(cb, kNodes, groupsOf(2ull * n - 1));
    // The climb in workgroups of one: llvmpipe runs the invocations of a workgroup as SIMD lanes
    // in step, and two lanes meeting at a node then both saw the other's arrival as not yet
    // there (measured: 8% of the nodes never bounded with workgroups of 64).
    Push push{kFit, triangles_, 0, sortBlocks_, margin_, 0, 0, 0};
    fitKernel_.dispatch(cb, &push, n);
    computeBarrier(cb);
}

GpuSelfCollision::Tree GpuSelfCollision::readTree(OneShot& once) const {
    const std::uint32_t n = triangles_;
    const std::size_t nodes = 2ull * n - 1;
    Tree t;
    t.codes.resize(n);
    t.order.resize(n);
    t.parent.resize(nodes);
    t.rangeEnd.resize(nodes);
    t.nodes.resize(nodes);
    download(*ctx_, once, codes_, t.codes.data(), 4ull * n);
    download(*ctx_, once, order_, t.order.data(), 4ull * n);
    download(*ctx_, once, parent_, t.parent.data(), 4 * nodes);
    download(*ctx_, once, rangeEnd_, t.rangeEnd.data(), 4 * nodes);
    download(*ctx_, once, nodes_, t.nodes.data(), sizeof(gpu::LbvhNode) * nodes);
    return t;
}

}  // namespace cloth::vk
