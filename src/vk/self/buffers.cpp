// GpuSelfCollision's buffers: their layout (shaders/self/buffers.glsl), the load-time data, the
// state, growth after an overflow, and the copies a redo starts from.
#include <algorithm>
#include <bit>
#include <cstring>

#include "core/error.h"
#include "prep/solver_data.h"
#include "vk/self/kernels.h"
#include "vk/self/self_collision_gpu.h"
#include "vk/transfer.h"

namespace cloth::vk {

namespace {

// Workgroup size of the self-collision kernels: 64, and 32 on CPU devices. llvmpipe allocates a
// workgroup's private memory with malloc for every workgroup it runs: past AddressSanitizer's
// largest cached size at 64 (each an mmap, its page faults and an munmap). The results do not
// depend on it (partial unions reduce by exact min and max; sums are integers).
std::uint32_t selfWorkgroupSize(const Context& ctx) {
    return ctx.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU ? 32u : 64u;
}

template <class T>
Buffer uploaded(const Context& ctx, OneShot& once, const std::vector<T>& data, const char* name) {
    return filledBuffer(ctx, once, data, name);
}

// The memory table's bits: at least twice the capacity's slots.
std::uint32_t memoryBitsFor(std::uint32_t capacity) {
    std::uint32_t bits = 6;
    while ((std::uint64_t(1) << bits) < 2ull * capacity) ++bits;
    return bits;
}

}  // namespace

std::uint64_t selfLevelsTotal(std::uint64_t n, std::uint64_t stride) {
    std::uint64_t total = 0;
    for (int j = 0; j < 8; ++j) {
        total += stride * n;
        if (n <= gpu::SELF_SCAN_BLOCK) break;
        n = (n + gpu::SELF_SCAN_BLOCK - 1) / gpu::SELF_SCAN_BLOCK;
    }
    return total + stride;
}

std::vector<std::uint32_t> selfLevelBlocks(std::uint64_t n) {
    std::vector<std::uint32_t> blocks;
    while (n > gpu::SELF_SCAN_BLOCK) {
        n = (n + gpu::SELF_SCAN_BLOCK - 1) / gpu::SELF_SCAN_BLOCK;
        blocks.push_back(static_cast<std::uint32_t>(n));
    }
    return blocks;
}

GpuSelfCollision::GpuSelfCollision(const Context& ctx, const PreparedCloth& p,
                                   const Buffer& positions, const Buffer& predicted,
                                   const Buffer& triangles, std::uint32_t capacity,
                                   std::uint32_t workgroup)
    : ctx_(&ctx),
      settings_(*p.sim.selfCollision),
      workgroup_(workgroup ? workgroup : selfWorkgroupSize(ctx)),
      positions_(&positions),
      predicted_(&predicted),
      triangles_buffer_(&triangles) {
    CLOTH_ASSERT(p.sim.selfCollision && !p.triangles.empty());
    CLOTH_ASSERT(p.triangleFeatureInfo.size() == p.triangles.size());
    CLOTH_ASSERT(p.sim.selfCollision->order != SelfCollisionSettings::Order::Sequential);
    // The walk's subgroups vote on when to test their pairs (shaders/self_gather.comp).
    VkPhysicalDeviceSubgroupProperties subgroups{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &subgroups;
    vkGetPhysicalDeviceProperties2(ctx.physicalDevice(), &properties);
    if ((subgroups.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0 ||
        (subgroups.supportedOperations & VK_SUBGROUP_FEATURE_VOTE_BIT) == 0)
        throw Error("self-collision on " + ctx.info().name +
                    " needs subgroup vote operations in compute shaders, which it lacks: run "
                    "--backend cpu");
    triangles_ = static_cast<std::uint32_t>(p.triangles.size());
    vertices_ = p.originalVertexCount;
    allVertices_ = p.vertexCount();
    phantomGroups_ = static_cast<std::uint32_t>(p.phantomGroups.size());
    phantomMembers_ = static_cast<std::uint32_t>(p.phantomMembers.size());
    boxPartials_ = groupsOf(triangles_);
    partials_ = groupsOf(vertices_);
    sortBlocks_ = (triangles_ + gpu::SELF_SORT_BLOCK - 1) / gpu::SELF_SORT_BLOCK;
    passes_ = p.sim.selfCollision->passes;
    vertexOrder_ = p.sim.selfCollision->order == SelfCollisionSettings::Order::Vertex;
    kernels_ = makeSelfKernels(ctx, workgroup_);

    OneShot once(ctx, "self-collision upload");
    const std::uint64_t n = triangles_, v = vertices_;
    start_ = deviceBuffer(ctx, 16ull * allVertices_, "self start");
    triInfo_ = uploaded(ctx, once, p.triangleFeatureInfo, "self triangle info");
    const SelfRestData& data = selfRestData(p, "the GPU's self-collision");
    leastThickness_ = data.leastThickness;
    triThickness_ = uploaded(ctx, once, data.triangleThickness, "self triangle thickness");
    const RestNeighbours& rest = data.neighbours;
    restVtOffsets_ = uploaded(ctx, once, rest.vtOffsets, "self rest vt offsets");
    restVt_ = uploaded(ctx, once, rest.vt, "self rest vt");
    restEeOffsets_ = uploaded(ctx, once, rest.eeOffsets, "self rest ee offsets");
    restEe_ = uploaded(ctx, once, rest.ee, "self rest ee");
    inertOffsets_ = uploaded(ctx, once, rest.inertOffsets, "self inert offsets");
    inert_ = uploaded(ctx, once, rest.inert, "self inert");
    const RestPairs& pairs = data.pairs;
    restPairs_ = uploaded(ctx, once, pairs.pairs, "self rest pairs");
    restPairLists_ = uploaded(ctx, once, pairs.lists, "self rest pair lists");
    restPairCount_ = static_cast<std::uint32_t>(pairs.pairs.size());
    restPlanes_ = deviceBuffer(ctx, 32ull * std::max<std::uint64_t>(restPairCount_, 1),
                               "self rest pairs' planes");
    work_ = deviceBuffer(ctx,
                         16ull * (2 * n + 2 + selfLevelsTotal(boxPartials_, 2) +
                                  selfLevelsTotal(partials_, gpu::SELF_MOTION_RANGES)),
                         "self boxes and unions");
    codes_ = deviceBuffer(ctx, 4 * n, "lbvh codes");
    order_ = deviceBuffer(ctx, 4 * n, "lbvh order");
    scratch_ = deviceBuffer(ctx, 8 * n + 4ull * gpu::SELF_SORT_BUCKETS * sortBlocks_,
                            "lbvh sort scratch");
    const std::uint64_t nodes = 2 * n - 1;
    nodes_ = deviceBuffer(ctx, sizeof(gpu::LbvhNode) * nodes, "lbvh nodes");
    nodeInts_ = deviceBuffer(ctx, 12 * nodes, "lbvh parents, range ends, arrivals");
    vertexData_ = deviceBuffer(ctx, 16 * 6 * v, "self vertex data");
    // The ints (shaders/self/buffers.glsl): lists' offsets, counts, contacts' counts, colours,
    // vertices by colour, phantom groups of originals; the walk's counts; the originals; the
    // phantom groups and members; the scans' sums.
    const SelfVertexColours& colours = data.vertexColours;
    colourOffsets_ = colours.offsets;
    std::vector<std::uint32_t> ints(3 * v + 1, 0);
    ints.insert(ints.end(), colours.colourOf.begin(), colours.colourOf.end());
    ints.insert(ints.end(), colours.order.begin(), colours.order.end());
    std::vector<std::uint32_t> groupOf(v, ~0u), originalOf(allVertices_);
    for (std::uint32_t k = 0; k < allVertices_; ++k) originalOf[k] = k;
    std::vector<std::uint32_t> phantoms;
    for (std::uint32_t g = 0; g < phantomGroups_; ++g) {
        const gpu::PhantomGroup group = p.phantomGroups[g];
        const std::uint32_t o = p.phantomMembers[group.first];
        groupOf[o] = g;
        for (std::uint32_t k = 1; k < group.count; ++k)
            originalOf[p.phantomMembers[group.first + k]] = o;
        phantoms.push_back(group.first);
        phantoms.push_back(group.count);
    }
    CLOTH_ASSERT(phantomMembers_ == phantomGroups_ + allVertices_ - vertices_);
    phantoms.insert(phantoms.end(), p.phantomMembers.begin(), p.phantomMembers.end());
    ints.insert(ints.end(), groupOf.begin(), groupOf.end());
    ints.resize(ints.size() + n, 0);  // the walk's counts
    ints.insert(ints.end(), originalOf.begin(), originalOf.end());
    ints.insert(ints.end(), phantoms.begin(), phantoms.end());
    std::uint64_t sums = 0;
    for (std::uint32_t b : selfLevelBlocks(std::max<std::uint64_t>(
             {n, v, std::uint64_t(gpu::SELF_SORT_BUCKETS) * sortBlocks_})))
        sums += b;
    ints.resize(ints.size() + sums + 1, 0);
    ints_ = uploaded(ctx, once, ints, "self ints");
    state_ = Buffer(ctx, sizeof(gpu::SelfState),
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                        VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "self state");
    allocateCandidates(capacity ? capacity : std::max(1024u, 16 * triangles_));
    startAnew(once);
    bindAll();
}

// No detection yet: the state zero but for what the host sets (detections 0: the first substep
// detects), an empty memory, no arrivals, no candidates, the tree due for a rebuild.
void GpuSelfCollision::startAnew(OneShot& once) {
    std::memset(state_.mapped(), 0, sizeof(gpu::SelfState));
    writeStaticState();
    once.run([&](VkCommandBuffer cb) {
        for (const Buffer* b : {&memoryKeys_, &nodeInts_, &vertexData_, &candData_, &slots_})
            vkCmdFillBuffer(cb, b->get(), 0, VK_WHOLE_SIZE, 0);
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, nullptr, 0,
                             nullptr);
    });
    frameState_ = state();
    frameCandidates_ = 0;
    rebuildDue_ = true;
    rebuildNow_ = false;
    refNodes_ = refPairs_ = 0;
}

void GpuSelfCollision::restart() {
    OneShot once(*ctx_, "self-collision restart");
    startAnew(once);
    rebuilds_ = 0;
}

std::uint32_t GpuSelfCollision::groupsOf(std::uint64_t n) const {
    return static_cast<std::uint32_t>((n + workgroup_ - 1) / workgroup_);
}

void GpuSelfCollision::allocateCandidates(std::uint32_t capacity) {
    // The walk's pool: the capacity and what the triangles' partly filled chunks can waste, in
    // whole chunks; a word (16 bytes) per slot and one per chunk.
    const std::uint64_t chunk = gpu::SELF_POOL_CHUNK;
    const std::uint64_t poolSlots =
        (capacity + (chunk - 1) * triangles_ + chunk - 1) / chunk * chunk;
    const std::uint64_t poolBytes = 16 * (poolSlots + poolSlots / chunk);
    const VkDeviceSize limit = ctx_->limits().maxStorageBufferRange;
    if (32ull * capacity > limit || poolBytes > limit || poolSlots > 0xffffffffull)
        throw Error("self-collision: " + std::to_string(capacity) +
                    " candidate pairs exceed the storage-buffer limit of " + ctx_->info().name);
    capacity_ = capacity;
    poolCapacity_ = static_cast<std::uint32_t>(poolSlots);
    pool_ = deviceBuffer(*ctx_, poolBytes, "self walk pool");
    candidates_ = deviceBuffer(*ctx_, 32ull * capacity, "self candidates");
    candData_ = deviceBuffer(*ctx_, 32ull * capacity, "self candidate gaps and sides");
    slotContacts_ = deviceBuffer(*ctx_, 32ull * capacity, "self slot contacts");
    slots_ = deviceBuffer(*ctx_, 32ull * capacity, "self list slots");
    snapCandidates_ = deviceBuffer(*ctx_, 32ull * capacity, "self snapshot candidates");
    snapCandData_ = deviceBuffer(*ctx_, 32ull * capacity, "self snapshot candidate data");
    snapSlots_ = deviceBuffer(*ctx_, 16ull * capacity, "self snapshot list slots");
    if (!snapInts_) {
        snapInts_ = deviceBuffer(*ctx_, 4ull * (vertices_ + 1), "self snapshot list offsets");
        snapVertexData_ = deviceBuffer(*ctx_, 16ull * vertices_, "self snapshot detected");
    }
    planes_ = deviceBuffer(*ctx_, 32ull * capacity, "self separating planes");
    memoryBits_ = memoryBitsFor(capacity);
    const VkDeviceSize slots = VkDeviceSize(1) << memoryBits_;
    memoryKeys_ = deviceBuffer(*ctx_, 16 * slots, "self memory keys");
    memoryNormals_ = deviceBuffer(*ctx_, 16 * slots, "self memory normals");
}

// The state's fields the host sets, and the gated dispatches' sizes.
void GpuSelfCollision::writeStaticState() {
    gpu::SelfState s;
    std::memcpy(&s, state_.mapped(), sizeof s);
    const SelfCollisionSettings& c = settings_;
    s.triangles = triangles_;
    s.vertices = vertices_;
    s.allVertices = allVertices_;
    s.phantomGroups = phantomGroups_;
    s.capacity = capacity_;
    s.memoryBits = memoryBits_;
    s.partials = partials_;
    s.boxPartials = boxPartials_;
    s.margin = c.margin;
    s.muS = c.staticFriction;
    s.muK = c.kineticFriction;
    s.minBound = c.bound;
    s.reach = 2.0f * leastThickness_ + c.margin;
    s.restPairs = restPairCount_;
    s.poolCapacity = poolCapacity_;
    s.everySubstep = c.detection == SelfCollisionSettings::Detection::EverySubstep ? 1u : 0u;
    planGates();
    s.gates = static_cast<std::uint32_t>(gateSizes_.size());
    for (std::uint32_t k = 0; k < gpu::SELF_GATES; ++k)
        s.gateSizes[k] = k < gateSizes_.size() ? gateSizes_[k] : glm::uvec4(0u);
    std::memcpy(state_.mapped(), &s, sizeof s);
}

void GpuSelfCollision::addGate(glm::uvec4 size) {
    CLOTH_ASSERT(gateSizes_.size() < gpu::SELF_GATES);
    gateSizes_.push_back(size);
}

// The detection's dispatches of a fixed size (SelfState::gateSizes), in gate order.
void GpuSelfCollision::planGates() {
    gateSizes_.clear();
    const auto over = [&](std::uint64_t items) {
        return gpu::selfGroups2D(static_cast<std::uint32_t>(items), workgroup_);
    };
    gates_.boxes = static_cast<std::uint32_t>(gateSizes_.size());
    addGate(over(triangles_));
    gates_.fit = static_cast<std::uint32_t>(gateSizes_.size());
    addGate(gpu::selfGroups2D(triangles_, 1));
    gates_.gather = static_cast<std::uint32_t>(gateSizes_.size());
    addGate(over(std::max<std::uint64_t>(
        {std::uint64_t(1) << memoryBits_, std::uint64_t(vertices_), std::uint64_t(triangles_)})));
    const auto scanGates = [&](std::uint64_t n, std::uint32_t* out) {
        const std::vector<std::uint32_t> blocks = selfLevelBlocks(n);
        std::uint32_t k = 0;
        for (std::uint32_t b : blocks) {
            out[k++] = static_cast<std::uint32_t>(gateSizes_.size());
            addGate(glm::uvec4(b, 1, 1, 0));
        }
        out[k++] = static_cast<std::uint32_t>(gateSizes_.size());
        addGate(glm::uvec4(1, 1, 1, 0));
        for (std::size_t j = blocks.size(); j-- > 0;) {
            out[k++] = static_cast<std::uint32_t>(gateSizes_.size());
            addGate(glm::uvec4(blocks[j], 1, 1, 0));
        }
    };
    scanGates(triangles_, gates_.scanGather);
    scanGates(vertices_, gates_.scanLists);
    gates_.listSort = static_cast<std::uint32_t>(gateSizes_.size());
    addGate(over(vertices_));
}

void GpuSelfCollision::bindAll() {
    const std::vector<const Buffer*> all = {
        positions_,     &start_,    predicted_,     triangles_buffer_, &triInfo_,
        &triThickness_, &restVtOffsets_, &restVt_,  &restEeOffsets_,   &restEe_,
        &inertOffsets_, &inert_,    &work_,         &codes_,           &order_,
        &scratch_,      &nodes_,    &nodeInts_,     &memoryKeys_,      &memoryNormals_,
        &state_,        &candidates_, &candData_,   &slotContacts_,    &vertexData_,
        &ints_,         &slots_,    &restPairs_,    &restPairLists_,   &planes_,
        &restPlanes_,   &pool_};
    CLOTH_ASSERT(all.size() == kSelfBindings);
    for (ComputeKernel& k : kernels_) k.bind(all);
}

gpu::SelfState GpuSelfCollision::state() const {
    gpu::SelfState s;
    std::memcpy(&s, state_.mapped(), sizeof s);
    return s;
}

void GpuSelfCollision::beginFrame() {
    gpu::SelfState s = state();
    s.frameDetections = 0;
    s.mostGathered = 0;
    s.truncated = 0;
    std::memcpy(state_.mapped(), &s, sizeof s);
    frameState_ = s;
    frameCandidates_ = s.candidates;
    rebuildNow_ = rebuildDue_;
}

void GpuSelfCollision::beginRecording() {
    dispatches_ = barriers_ = 0;
    log_.clear();
}

// The candidates' arrays of the frame's start, copied into the snapshot (or back). The frame's
// recording copies whole buffers, so that it does not depend on the candidates the frame starts
// with and serves every frame until the buffers grow; a redo's restore takes the frame's own.
void GpuSelfCollision::snapshotCopies(VkCommandBuffer cb, bool restore) {
    detail::transferBarrier(cb);
    const auto copy = [&](const Buffer& live, const Buffer& snap, VkDeviceSize bytes) {
        if (bytes == 0) return;
        const VkBufferCopy region{0, 0, bytes};
        if (restore)
            vkCmdCopyBuffer(cb, snap.get(), live.get(), 1, &region);
        else
            vkCmdCopyBuffer(cb, live.get(), snap.get(), 1, &region);
    };
    const VkDeviceSize c = restore ? frameCandidates_ : capacity_;
    copy(candidates_, snapCandidates_, 32 * c);
    copy(candData_, snapCandData_, 32 * c);
    copy(slots_, snapSlots_, 16 * c);
    copy(ints_, snapInts_, 4ull * (vertices_ + 1));
    copy(vertexData_, snapVertexData_, 16ull * vertices_);
    detail::transferBarrier(cb);
    barriers_ += 2;
}

void GpuSelfCollision::recordFrameStart(VkCommandBuffer cb) { snapshotCopies(cb, false); }

std::uint32_t GpuSelfCollision::truncated() const { return state().truncated; }

bool GpuSelfCollision::overflowed() const { return state().mostGathered > capacity_; }

// Bigger buffers (the snapshot's content kept: it moves into the new working buffers at the
// restore), the state of the frame's start back.
void GpuSelfCollision::grow() {
    const std::uint32_t most = state().mostGathered;
    Buffer keepCandidates = std::move(snapCandidates_), keepData = std::move(snapCandData_);
    Buffer keepSlots = std::move(snapSlots_);
    allocateCandidates(std::bit_ceil(most + most / 2));  // headroom: a redo is rare
    OneShot once(*ctx_, "self-collision growth");
    once.run([&](VkCommandBuffer cb) {
        detail::transferBarrier(cb);
        const auto copy = [&](const Buffer& from, const Buffer& to, VkDeviceSize bytes) {
            if (bytes == 0) return;
            const VkBufferCopy region{0, 0, bytes};
            vkCmdCopyBuffer(cb, from.get(), to.get(), 1, &region);
        };
        copy(keepCandidates, snapCandidates_, 32ull * frameCandidates_);
        copy(keepData, snapCandData_, 32ull * frameCandidates_);
        copy(keepSlots, snapSlots_, 16ull * frameCandidates_);
        detail::transferBarrier(cb);
    });
    std::memcpy(state_.mapped(), &frameState_, sizeof frameState_);
    writeStaticState();
    bindAll();
    ++growths_;
}

void GpuSelfCollision::recordRestore(VkCommandBuffer cb) {
    std::memcpy(state_.mapped(), &frameState_, sizeof frameState_);
    writeStaticState();
    snapshotCopies(cb, true);
}

// The rebuild rule, as the CPU's (src/cpu/self/self_collision.cpp): worn when the last
// detection's nodes per (pairs + triangles) grew past 3/2 of the reference's, the first frame's
// with a detection after a rebuild.
void GpuSelfCollision::endFrame() {
    if (rebuildNow_) {
        rebuildDue_ = false;
        ++rebuilds_;
        refNodes_ = refPairs_ = 0;
    }
    const gpu::SelfState s = state();
    if (s.frameDetections == 0) return;
    const std::uint64_t t = triangles_;
    if (refNodes_ == 0) {
        refNodes_ = s.walkNodes;
        refPairs_ = s.pairs;
        return;
    }
    if (2 * std::uint64_t(s.walkNodes) * (refPairs_ + t) > 3 * refNodes_ * (s.pairs + t))
        rebuildDue_ = true;
}

}  // namespace cloth::vk
