#include "vk/self_collision_gpu.h"

#include <cstddef>
#include <algorithm>
#include <bit>
#include <cstring>

#include "core/error.h"
#include "prep/self_collision_data.h"
#include "kernels/self_jobs.h"

#include <vector>

namespace cloth::vk {

namespace {

// Workgroup size of the self-collision kernels: 64, and 32 on CPU devices. llvmpipe allocates
// a workgroup's private memory (the walk's stack and the like: 2.5 KB per invocation) with
// malloc for every workgroup it runs: 160 KB at 64, past AddressSanitizer's largest cached
// size, so that each became an mmap, its page faults and an munmap (a 15-frame self-collision
// clothcheck: 15,424 munmaps and 4.2 s; at 32, 1,700 and 2.7 s). The results do not depend on
// it (per-workgroup partial boxes reduce by exact min and max).
std::uint32_t selfWorkgroupSize(const Context& ctx) {
    return ctx.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU ? 32u : 64u;
}

struct Push {
    std::uint32_t job, count, shift, blocks;
    float margin;
    std::uint32_t flip, vertices, allVertices;
    float muS, muK;
    std::uint32_t phantomGroupCount, oldSlots, oldBits, partialCount, color, scan;
};
static_assert(sizeof(Push) == 64);

constexpr std::uint32_t kBindings = 32;
constexpr VkDeviceSize kGroupsOffset = 32;      // Counters::groups
constexpr VkDeviceSize kPairGroupsOffset = 48;  // Counters::pairGroups
constexpr VkDeviceSize kColorGroupsOffset = 80;  // Counters::colorGroups
constexpr VkDeviceSize kRoundGroupsOffset = kColorGroupsOffset + 16ull * gpu::SELF_COLOR_SLOTS;

// The levels of a scan or union of n items (shaders/lib/block_scan.glsl): per level below the
// top, its blocks of SELF_SCAN_BLOCK (the items of the level above), up to the first level of
// at most one block.
std::vector<std::uint32_t> levelBlocks(std::uint64_t n) {
    std::vector<std::uint32_t> blocks;
    while (n > gpu::SELF_SCAN_BLOCK) {
        n = (n + gpu::SELF_SCAN_BLOCK - 1) / gpu::SELF_SCAN_BLOCK;
        blocks.push_back(static_cast<std::uint32_t>(n));
    }
    return blocks;
}

// A scan of n items keeps this many block sums, all levels.
std::uint64_t scanSums(std::uint64_t n) {
    std::uint64_t sums = 0;
    for (std::uint32_t b : levelBlocks(n)) sums += b;
    return sums;
}

template <class T>
Buffer uploaded(const Context& ctx, OneShot& once, const std::vector<T>& data, const char* name) {
    Buffer b = deviceBuffer(ctx, std::max<std::size_t>(16, sizeof(T) * data.size()), name);
    upload(ctx, once, b, data.data(), sizeof(T) * data.size());
    return b;
}

// The memory table's bits: at least twice the capacity's slots.
std::uint32_t memoryBitsFor(std::uint32_t capacity) {
    std::uint32_t bits = 6;
    while ((std::uint64_t(1) << bits) < 2ull * capacity) ++bits;
    return bits;
}

}  // namespace

GpuSelfCollision::GpuSelfCollision(const Context& ctx, const PreparedCloth& p,
                                   const Buffer& positions, const Buffer& predicted,
                                   const Buffer& triangles, std::uint32_t capacity,
                                   std::uint32_t pairCapacity)
    : ctx_(&ctx),
      positions_(&positions),
      predicted_(&predicted),
      triangles_buffer_(&triangles),
      workgroup_(selfWorkgroupSize(ctx)),
      kernel_(ctx, "self_collide.comp", kBindings, sizeof(Push), workgroup_),
      fitKernel_(ctx, "self_collide.comp", kBindings, sizeof(Push), 1),
      sortKernel_(ctx, "self_sort.comp", kBindings, sizeof(Push), workgroup_) {
    CLOTH_ASSERT(p.sim.selfCollision && !p.triangles.empty());
    CLOTH_ASSERT(p.triangleFeatureInfo.size() == p.triangles.size());
    const auto n = static_cast<std::uint32_t>(p.triangles.size());
    triangles_ = n;
    vertices_ = p.originalVertexCount;
    allVertices_ = p.vertexCount();
    phantomGroups_ = static_cast<std::uint32_t>(p.phantomGroups.size());
    groups_ = groupsOf(n);
    sortBlocks_ = (n + gpu::SELF_SORT_BLOCK - 1) / gpu::SELF_SORT_BLOCK;
    margin_ = p.sim.selfCollision->margin;
    muS_ = p.sim.selfCollision->staticFriction;
    muK_ = p.sim.selfCollision->kineticFriction;
    CLOTH_ASSERT(p.sim.selfCollision->order != SelfCollisionSettings::Order::Sequential);
    colored_ = p.sim.selfCollision->order == SelfCollisionSettings::Order::Vertex;
    const std::uint64_t nodes = 2ull * n - 1;
    OneShot once(ctx, "self-collision upload");
    start_ = deviceBuffer(ctx, 16ull * allVertices_, "self start");
    triInfo_ = uploaded(ctx, once, p.triangleFeatureInfo, "self triangle info");
    triThickness_ = uploaded(ctx, once, triangleThicknesses(p), "self triangle thickness");
    tight_ = deviceBuffer(ctx, 32ull * n, "self tight boxes");
    // boxes, partial boxes, the scene's box and grid, the partial boxes' unions by levels
    work_ = deviceBuffer(ctx, 32ull * n + 32ull * groups_ + 32 + 32ull * scanSums(groups_),
                         "self boxes");
    codes_ = deviceBuffer(ctx, 4ull * n, "lbvh codes");
    order_ = deviceBuffer(ctx, 4ull * n, "lbvh order");
    scratch_ = deviceBuffer(ctx, scratchBytes(0), "lbvh sort scratch");
    nodes_ = deviceBuffer(ctx, sizeof(gpu::LbvhNode) * nodes, "lbvh nodes");
    nodeInts_ = deviceBuffer(ctx, 12 * nodes, "lbvh parents, range ends, arrivals");
    const RestNeighbours rest = findRestNeighbours(p);
    restVtOffsets_ = uploaded(ctx, once, rest.vtOffsets, "self rest vt offsets");
    restVt_ = uploaded(ctx, once, rest.vt, "self rest vt");
    restEeOffsets_ = uploaded(ctx, once, rest.eeOffsets, "self rest ee offsets");
    restEe_ = uploaded(ctx, once, rest.ee, "self rest ee");
    inertOffsets_ = uploaded(ctx, once, rest.inertOffsets, "self inert offsets");
    inert_ = uploaded(ctx, once, rest.inert, "self inert");
    walkCounts_ = deviceBuffer(ctx, 4ull * n, "self walk counts");
    CLOTH_ASSERT(scanSums(256ull * sortBlocks_) <= n);  // the sort's scans keep their sums there
    counters_ = Buffer(ctx, sizeof(Counters),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                           VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                       VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "self counters");
    std::memset(counters_.mapped(), 0, sizeof(Counters));
    // Jacobi: counts and offsets (2 V + 1); colored: four mask words and three rounds' highest
    // priorities (7 V).
    lists_ = deviceBuffer(ctx, 4ull * (7 * vertices_ + 1), "self vertex lists");
    moved_ = deviceBuffer(ctx, 16ull * vertices_, "self moved");
    std::vector<std::uint32_t> phantoms;
    for (const gpu::PhantomGroup& g : p.phantomGroups) {
        phantoms.push_back(g.first);
        phantoms.push_back(g.count);
    }
    phantoms.insert(phantoms.end(), p.phantomMembers.begin(), p.phantomMembers.end());
    phantoms_ = uploaded(ctx, once, phantoms, "self phantoms");
    capacity_ = capacity ? capacity : std::max(1024u, 4 * n);
    allocateContacts(capacity_);
    allocatePairs(pairCapacity ? pairCapacity : capacity ? capacity : std::max(1024u, 16 * n));
    memoryBits_ = memoryBitsFor(capacity_);
    const VkDeviceSize slots = VkDeviceSize(1) << memoryBits_;
    memoryKeys_ = deviceBuffer(ctx, 16 * slots, "self memory keys");
    memoryNormals_ = deviceBuffer(ctx, 16 * slots, "self memory normals");
    old_ = deviceBuffer(ctx, 32 * slots, "self memory (snapshot)");
    once.run([&](VkCommandBuffer cb) {  // an empty memory, list counts at 0
        for (const Buffer* b : {&memoryKeys_, &old_, &lists_, &moved_})
            vkCmdFillBuffer(cb, b->get(), 0, VK_WHOLE_SIZE, 0);
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, nullptr, 0,
                             nullptr);
    });
    oldBits_ = memoryBits_;
    bindAll();
}

// The sort's second keys and histograms; after the sort, the scans' block sums (SCAN_WALK,
// SCAN_PAIRS over `pairCapacity` pairs, SCAN_LISTS).
VkDeviceSize GpuSelfCollision::scratchBytes(std::uint32_t pairCapacity) const {
    const std::uint64_t most = std::max({std::uint64_t(pairCapacity), std::uint64_t(vertices_),
                                         std::uint64_t(triangles_)});
    return std::max<VkDeviceSize>(8ull * triangles_ + 4ull * 256 * sortBlocks_,
                                  4 * std::max<std::uint64_t>(1, scanSums(most)));
}

void GpuSelfCollision::allocatePairs(std::uint32_t capacity) {
    if (8ull * capacity > ctx_->limits().maxStorageBufferRange)
        throw Error("self-collision: " + std::to_string(capacity) +
                    " close triangle pairs exceed the storage-buffer limit of " +
                    ctx_->info().name);
    pairs_ = Buffer();
    pairCounts_ = Buffer();
    if (scratch_.size() < scratchBytes(capacity)) {  // the pairs' scan keeps its sums there
        scratch_ = Buffer();
        scratch_ = deviceBuffer(*ctx_, scratchBytes(capacity), "lbvh sort scratch");
    }
    pairs_ = deviceBuffer(*ctx_, 8ull * capacity, "self close pairs");
    pairCounts_ = deviceBuffer(*ctx_, 4ull * capacity, "self pair counts");
    pairCapacity_ = capacity;
}

void GpuSelfCollision::allocateContacts(std::uint32_t capacity) {
    const VkDeviceSize bytes = sizeof(gpu::SelfContact) * VkDeviceSize(capacity);
    if (bytes > ctx_->limits().maxStorageBufferRange ||
        16ull * 4 * capacity > ctx_->limits().maxStorageBufferRange)
        throw Error("self-collision: " + std::to_string(capacity) +
                    " contacts exceed the storage-buffer limit of " + ctx_->info().name);
    contacts_ = Buffer();
    slots_ = Buffer();
    corrections_ = Buffer();
    contacts_ = deviceBuffer(*ctx_, bytes, "self contacts");
    // (Colored: the colours' offsets after 4 words per contact.)
    slots_ = deviceBuffer(*ctx_, 16ull * capacity + 4ull * (gpu::SELF_COLOR_SLOTS + 1),
                          "self list slots");
    corrections_ = deviceBuffer(*ctx_, 64ull * capacity, "self corrections");
    capacity_ = capacity;
}

std::uint32_t GpuSelfCollision::groupsOf(std::uint64_t n) const {
    return static_cast<std::uint32_t>((n + workgroup_ - 1) / workgroup_);
}

void GpuSelfCollision::bindAll() {
    const std::vector<const Buffer*> all = {
        positions_, &start_, predicted_, triangles_buffer_, &triInfo_, &triThickness_, &tight_,
        &work_, &codes_, &order_, &scratch_, &nodes_, &nodeInts_, &restVtOffsets_, &restVt_,
        &restEeOffsets_, &restEe_, &inertOffsets_, &inert_, &memoryKeys_, &memoryNormals_,
        &walkCounts_, &contacts_, &counters_, &lists_, &slots_, &corrections_, &moved_,
        &phantoms_, &old_, &pairs_, &pairCounts_};
    CLOTH_ASSERT(all.size() == kBindings);
    kernel_.bind(all);
    fitKernel_.bind(all);
    sortKernel_.bind(all);
}

void GpuSelfCollision::dispatch(VkCommandBuffer cb, std::uint32_t job, std::uint32_t groups,
                                std::uint32_t shift, std::uint32_t flip, std::uint32_t color,
                                std::uint32_t scanArray) const {
    Push push{job, triangles_, shift, job == gpu::SELF_JOB_REDUCE ? groups_ : sortBlocks_,
              margin_, flip,
              vertices_, allVertices_, muS_, muK_, phantomGroups_,
              std::uint32_t(1) << oldBits_, oldBits_, groups_, color, scanArray};
    if (job == gpu::SELF_JOB_FIT) {
        // The climb in workgroups of one: llvmpipe runs the invocations of a workgroup as SIMD
        // lanes in step, and two lanes meeting at a node then both saw the other's arrival as
        // not yet there (measured: 8% of the nodes never bounded with workgroups of 64).
        fitKernel_.dispatch(cb, &push, groups);
    } else if (job == gpu::SELF_JOB_SORT_COUNT || job == gpu::SELF_JOB_SORT_SCATTER) {
        sortKernel_.dispatch(cb, &push, groups);  // shaders/self_sort.comp
    } else {
        kernel_.dispatch(cb, &push, groups);
    }
    computeBarrier(cb);
}

void GpuSelfCollision::scan(VkCommandBuffer cb, std::uint32_t array, std::uint64_t most,
                            std::uint32_t shift, std::uint32_t flip) const {
    // Level k + 1 holds level k's block sums, for `most` items (the GPU's own count may be
    // fewer: its upper levels then hold fewer items, and one block does the top).
    const std::vector<std::uint32_t> blocks = levelBlocks(most);
    const auto levels = static_cast<std::uint32_t>(blocks.size());
    for (std::uint32_t k = 0; k < levels; ++k)
        dispatch(cb, gpu::SELF_JOB_SCAN_BLOCKS, blocks[k], shift, flip, k, array);
    dispatch(cb, gpu::SELF_JOB_SCAN_TOP, 1, shift, flip, levels, array);
    for (std::uint32_t k = levels; k-- > 0;)
        dispatch(cb, gpu::SELF_JOB_SCAN_APPLY, blocks[k], shift, flip, k, array);
}

void GpuSelfCollision::dispatchOverContacts(VkCommandBuffer cb, std::uint32_t job,
                                            bool overPairs, std::uint32_t color,
                                            std::uint32_t scanArray) const {
    Push push{job, triangles_, 0, sortBlocks_, margin_, 0, vertices_, allVertices_, muS_, muK_,
              phantomGroups_, 0, 0, groups_, color, scanArray};
    kernel_.dispatchIndirect(cb, &push, counters_, overPairs ? kPairGroupsOffset : kGroupsOffset);
    computeBarrier(cb);
}

void GpuSelfCollision::beginFrame() {
    Counters c{};
    std::memcpy(&c, counters_.mapped(), sizeof c);
    c.capacity = capacity_;
    c.mostTotal = 0;
    c.memoryBits = memoryBits_;
    c.pairCapacity = pairCapacity_;
    c.mostPairs = 0;
    c.mostColors = 0;
    c.truncated = 0;
    c.uncolored = 0;
    std::memcpy(counters_.mapped(), &c, sizeof c);
}

GpuSelfCollision::Counters GpuSelfCollision::counters() const {
    static_assert(offsetof(Counters, colorGroups) == kColorGroupsOffset);
    static_assert(offsetof(Counters, roundGroups) == kRoundGroupsOffset);
    Counters c;
    std::memcpy(&c, counters_.mapped(), sizeof c);
    return c;
}

void GpuSelfCollision::recordSnapshot(VkCommandBuffer cb) const {
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         0, 1, &before, 0, nullptr, 0, nullptr);
    const VkBufferCopy keys{0, 0, memoryKeys_.size()};
    const VkBufferCopy normals{0, memoryKeys_.size(), memoryNormals_.size()};
    vkCmdCopyBuffer(cb, memoryKeys_.get(), old_.get(), 1, &keys);
    vkCmdCopyBuffer(cb, memoryNormals_.get(), old_.get(), 1, &normals);
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &after, 0, nullptr, 0, nullptr);
}

void GpuSelfCollision::recordStart(VkCommandBuffer cb) const {
    dispatch(cb, gpu::SELF_JOB_START, groupsOf(allVertices_));
}

void GpuSelfCollision::recordBuild(VkCommandBuffer cb) const {
    recordBuildPhases(cb, {});
}

void GpuSelfCollision::recordBuildPhases(VkCommandBuffer cb,
                                         const std::function<void(int)>& phaseDone) const {
    auto done = [&](int k) {
        if (phaseDone) phaseDone(k);
    };
    const std::uint32_t n = triangles_;
    dispatch(cb, gpu::SELF_JOB_BOXES, groups_);
    // The partial boxes' union by levels, as a scan's.
    const std::vector<std::uint32_t> reduceBlocks = levelBlocks(groups_);
    const auto levels = static_cast<std::uint32_t>(reduceBlocks.size());
    for (std::uint32_t k = 0; k < levels; ++k)
        dispatch(cb, gpu::SELF_JOB_REDUCE, reduceBlocks[k], 0, 0, k, 0);
    dispatch(cb, gpu::SELF_JOB_REDUCE, 1, 0, 0, levels, 1);
    dispatch(cb, gpu::SELF_JOB_CODES, groups_);
    done(0);
    // Four stable passes of 8 bits, ping-pong: the sorted keys end in codes/order.
    for (std::uint32_t pass = 0; pass < 4; ++pass) {
        const std::uint32_t flip = pass % 2;
        dispatch(cb, gpu::SELF_JOB_SORT_COUNT, groupsOf(sortBlocks_), 8 * pass, flip);
        scan(cb, gpu::SELF_SCAN_SORT, 256ull * sortBlocks_, 8 * pass, flip);
        dispatch(cb, gpu::SELF_JOB_SORT_SCATTER, groupsOf(sortBlocks_), 8 * pass, flip);
    }
    done(1);
    dispatch(cb, gpu::SELF_JOB_NODES, groupsOf(2ull * n - 1));
    done(2);
    dispatch(cb, gpu::SELF_JOB_FIT, n);
    done(3);
}

void GpuSelfCollision::recordDetect(VkCommandBuffer cb,
                                    const std::function<void(int)>& phaseDone) const {
    recordBuildPhases(cb, phaseDone);
    dispatch(cb, gpu::SELF_JOB_WALK_COUNT, groups_);
    scan(cb, gpu::SELF_SCAN_WALK, triangles_);
    dispatch(cb, gpu::SELF_JOB_WALK_WRITE, groups_);
    dispatchOverContacts(cb, gpu::SELF_JOB_NARROW_COUNT, true);
    scan(cb, gpu::SELF_SCAN_PAIRS, pairCapacity_);
    dispatchOverContacts(cb, gpu::SELF_JOB_NARROW_WRITE, true);
    if (phaseDone) phaseDone(4);
    dispatch(cb, gpu::SELF_JOB_MEMORY_CLEAR, groupsOf(std::uint64_t(1) << memoryBits_));
    dispatchOverContacts(cb, gpu::SELF_JOB_MEMORY_INSERT);
    if (colored_) {
        // Jones-Plassmann-Luby rounds (self_contacts.h): round 0 the priorities' maxima only,
        // then each round its winners' colours; then a counting sort by colour.
        dispatch(cb, gpu::SELF_JOB_COLOR_CLEAR,
                 groupsOf(std::max(vertices_, gpu::SELF_COLOR_SLOTS + 1)));
        dispatchOverContacts(cb, gpu::SELF_JOB_COLOR_ROUND, false, 0);
        for (std::uint32_t r = 1; r <= roundsRecorded_; ++r) {
            Push push{gpu::SELF_JOB_COLOR_ROUND, triangles_, 0, sortBlocks_, margin_, 0,
                      vertices_, allVertices_, muS_, muK_, phantomGroups_, 0, 0, groups_, r,
                      r == roundsRecorded_ ? 1u : 0u};
            kernel_.dispatchIndirect(cb, &push, counters_, kRoundGroupsOffset + 16ull * r);
            computeBarrier(cb);
        }
        dispatch(cb, gpu::SELF_JOB_COLOR_OFFSETS, 1);
        dispatchOverContacts(cb, gpu::SELF_JOB_COLOR_PLACE);
        dispatch(cb, gpu::SELF_JOB_COLOR_END, 1);
    } else {
        dispatch(cb, gpu::SELF_JOB_LIST_CLEAR, groupsOf(vertices_));
        dispatchOverContacts(cb, gpu::SELF_JOB_LIST_COUNT);
        scan(cb, gpu::SELF_SCAN_LISTS, vertices_);
        dispatchOverContacts(cb, gpu::SELF_JOB_LIST_FILL);
        dispatch(cb, gpu::SELF_JOB_LIST_SORT, groupsOf(vertices_));
    }
    if (phaseDone) phaseDone(5);
}

void GpuSelfCollision::recordSolve(VkCommandBuffer cb) const {
    if (colored_) {
        if (phantomGroups_) dispatch(cb, gpu::SELF_JOB_COLOR_KEEP, groupsOf(vertices_));
        for (std::uint32_t k = 0; k < colorsRecorded_; ++k) {
            Push push{gpu::SELF_JOB_SOLVE_COLOR, triangles_, 0, sortBlocks_, margin_, 0, vertices_,
                      allVertices_, muS_, muK_, phantomGroups_, 0, 0, groups_, k, 0};
            kernel_.dispatchIndirect(cb, &push, counters_, kColorGroupsOffset + 16ull * k);
            computeBarrier(cb);
        }
        if (phantomGroups_) dispatch(cb, gpu::SELF_JOB_COLOR_COPIES, groupsOf(phantomGroups_));
        return;
    }
    dispatchOverContacts(cb, gpu::SELF_JOB_SOLVE);
    dispatch(cb, gpu::SELF_JOB_GATHER, groupsOf(vertices_));
    if (phantomGroups_) dispatch(cb, gpu::SELF_JOB_COPIES, groupsOf(phantomGroups_));
}

std::uint32_t GpuSelfCollision::truncated() const { return counters().truncated; }

bool GpuSelfCollision::overflowed() const {
    const Counters c = counters();
    return c.mostTotal > capacity_ || c.mostPairs > pairCapacity_ ||
           (colored_ && (c.mostColors > colorsRecorded_ || c.uncolored > 0));
}

void GpuSelfCollision::grow() {
    const Counters c = counters();
    if (colored_ && c.mostColors > colorsRecorded_)
        colorsRecorded_ = std::min(gpu::SELF_COLOR_SLOTS, (c.mostColors + c.mostColors / 4 + 31) / 32 * 32);
    if (colored_ && c.uncolored > 0) {
        if (roundsRecorded_ >= gpu::SELF_COLOR_ROUNDS)
            throw Error("self-collision: the contacts' colouring needs more than " +
                        std::to_string(gpu::SELF_COLOR_ROUNDS) +
                        " rounds (a chain of that many contacts, each sharing a vertex with the "
                        "next, each of lower priority); fewer contacts per vertex (a smaller "
                        "margin or thickness) would do");
        roundsRecorded_ = std::min(gpu::SELF_COLOR_ROUNDS, 2 * roundsRecorded_);
    }
    if (c.mostTotal <= capacity_ && c.mostPairs <= pairCapacity_) {  // the colours only
        oldBits_ = memoryBits_;
        beginFrame();
        return;
    }
    if (c.mostPairs > pairCapacity_) allocatePairs(std::bit_ceil(c.mostPairs));
    // (A substep whose pairs overflowed counted only the stored pairs' contacts: the redo may
    // overflow the contacts next, and grows them then.)
    if (c.mostTotal > capacity_) allocateContacts(std::bit_ceil(c.mostTotal));
    oldBits_ = memoryBits_;  // the snapshot's table, to rehash from
    memoryBits_ = memoryBitsFor(capacity_);
    const VkDeviceSize slots = VkDeviceSize(1) << memoryBits_;
    memoryKeys_ = Buffer();
    memoryNormals_ = Buffer();
    memoryKeys_ = deviceBuffer(*ctx_, 16 * slots, "self memory keys");
    memoryNormals_ = deviceBuffer(*ctx_, 16 * slots, "self memory normals");
    ++growths_;
    bindAll();
    beginFrame();
}

void GpuSelfCollision::finishGrowth() {
    old_ = Buffer();
    old_ = deviceBuffer(*ctx_, 32 * (VkDeviceSize(1) << memoryBits_), "self memory (snapshot)");
    oldBits_ = memoryBits_;
    bindAll();
}

void GpuSelfCollision::recordRestore(VkCommandBuffer cb) const {
    // The new table from the snapshot: emptied, then every remembered key inserted again (a
    // lookup finds the same direction in a table of any size).
    dispatch(cb, gpu::SELF_JOB_MEMORY_CLEAR, groupsOf(std::uint64_t(1) << memoryBits_));
    dispatch(cb, gpu::SELF_JOB_MEMORY_REHASH, groupsOf(std::uint64_t(1) << oldBits_));
}

std::uint32_t GpuSelfCollision::contactCount() const { return counters().total; }
std::uint32_t GpuSelfCollision::candidatePairs() const { return counters().candidatePairs; }
std::uint32_t GpuSelfCollision::primitivePairs() const { return counters().primitivePairs; }

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
    download(*ctx_, once, nodeInts_, t.parent.data(), 4 * nodes);
    download(*ctx_, once, nodeInts_, t.rangeEnd.data(), 4 * nodes, 4 * nodes);
    download(*ctx_, once, nodes_, t.nodes.data(), sizeof(gpu::LbvhNode) * nodes);
    return t;
}

std::vector<gpu::SelfContact> GpuSelfCollision::readContacts(OneShot& once) const {
    std::vector<gpu::SelfContact> out(std::min(counters().total, capacity_));
    download(*ctx_, once, contacts_, out.data(), sizeof(gpu::SelfContact) * out.size());
    return out;
}

GpuSelfCollision::Colors GpuSelfCollision::readColors(OneShot& once) const {
    const std::size_t n = std::min(counters().total, capacity_);
    Colors c;
    c.order.resize(n);
    c.colorOf.resize(n);
    c.offsets.resize(gpu::SELF_COLOR_SLOTS + 1);
    download(*ctx_, once, slots_, c.order.data(), 4 * n);
    download(*ctx_, once, slots_, c.colorOf.data(), 4 * n, 4ull * capacity_);
    download(*ctx_, once, slots_, c.offsets.data(), 4 * c.offsets.size(), 16ull * capacity_);
    return c;
}

}  // namespace cloth::vk
