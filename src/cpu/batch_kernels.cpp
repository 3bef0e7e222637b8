#include "cpu/batch_kernels.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

#include "kernels/constraints.h"
#include "core/error.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CLOTH_X86 1
#else
#define CLOTH_X86 0
#endif

namespace cloth {
namespace {

#define CLOTH_INLINE inline __attribute__((always_inline))

// Constraints per block: two vectors per value, which gives the out-of-order core two
// independent chains through the long atan2/division sequence (AVX2, measured: 16 lanes ~10%
// faster than 8, 32 no better). AVX-512: two 16-wide vectors, 32 lanes.
template <BatchIsa I>
constexpr std::uint32_t kLanesOf = I == BatchIsa::Avx512 ? 32 : 16;

// One block of items of constraint type T (a row of src/kernels/constraint_types.h): their
// records and multipliers (kLanes of each, in place or a padded copy), their vertex positions
// component by component, v[vertex][component][lane], and the rest of each record word by word.
template <class T, std::uint32_t L>
struct Block {
    static constexpr std::uint32_t kLanes = L;
    using Item = typename T::Item;
    using Lambda = typename T::Lambda;
    static constexpr int V = T::kVertices;
    static constexpr int kWords = sizeof(Item) / 4;
    const Item* c;
    Lambda* lambda;
    alignas(64) float v[V][4][kLanes];
    // vec4 multipliers (StVK, isometric bending) component by component, m[component][lane]:
    // read lane by lane from the array, they stop the lane loop from vectorising (GCC: "more
    // than one data ref"), which then ran one lane at a time. Float multipliers stay in place.
    static constexpr bool kVecLambda = std::is_same_v<Lambda, glm::vec4>;
    alignas(64) float m[kVecLambda ? 4 : 1][kLanes];
    alignas(64) std::uint32_t w[kWords][kLanes];  // words V.. of each record

    CLOTH_INLINE glm::vec4 get(int k, std::uint32_t l) const {
        return {v[k][0][l], v[k][1][l], v[k][2][l], v[k][3][l]};
    }
    CLOTH_INLINE void set(int k, std::uint32_t l, const glm::vec4& p) {
        v[k][0][l] = p.x;
        v[k][1][l] = p.y;
        v[k][2][l] = p.z;
        v[k][3][l] = p.w;
    }
    CLOTH_INLINE std::uint32_t vertex(std::uint32_t l, int k) const {
        return gpu::itemVertex(c[l], k);
    }
    CLOTH_INLINE void loadParams() {
        for (int k = V; k < kWords; ++k)
            for (std::uint32_t l = 0; l < kLanes; ++l)
                std::memcpy(&w[k][l], reinterpret_cast<const unsigned char*>(&c[l]) + 4 * k, 4);
    }
    // One lane: the type's own per-item solve on the gathered positions. The lane's record is
    // rebuilt with vertex slots 0..V-1 in place of vertex indices, which LaneView maps to the
    // block. The multiplier goes through a local: a conditional store to the array would stop
    // the vectoriser.
    CLOTH_INLINE void solveLane(std::uint32_t l, const gpu::SolveParams& sp);
};

// What a lane's per-item solve loads and stores vertex positions through (CLOTH_LOAD).
template <class T, std::uint32_t L>
struct LaneView {
    Block<T, L>* b;
    std::uint32_t l;
};
template <class T, std::uint32_t L>
CLOTH_INLINE glm::vec4 clothLoad(LaneView<T, L>& view, std::uint32_t slot) {
    return view.b->get(static_cast<int>(slot), view.l);
}
template <class T, std::uint32_t L>
CLOTH_INLINE void clothStore(LaneView<T, L>& view, std::uint32_t slot, const glm::vec4& x) {
    view.b->set(static_cast<int>(slot), view.l, x);
}

template <class T, std::uint32_t L>
CLOTH_INLINE void Block<T, L>::solveLane(std::uint32_t l, const gpu::SolveParams& sp) {
    std::array<std::uint32_t, kWords> words;
    for (int k = 0; k < V; ++k) words[k] = static_cast<std::uint32_t>(k);
    for (int k = V; k < kWords; ++k) words[k] = w[k][l];
    const Item item = std::bit_cast<Item>(words);
    Lambda lam;
    if constexpr (kVecLambda)
        lam = Lambda(m[0][l], m[1][l], m[2][l], m[3][l]);
    else
        lam = lambda[l];
    LaneView<T, L> view{this, l};
    T::solve(view, item, lam, sp);
    if constexpr (kVecLambda) {
        m[0][l] = lam.x;
        m[1][l] = lam.y;
        m[2][l] = lam.z;
        m[3][l] = lam.w;
    } else {
        lambda[l] = lam;
    }
}

// ---- gather and scatter ---------------------------------------------------------------------
// A scatter stores a lane's vertex 0 first, then 1, ..., like the plain loop and the shader.

template <class B>
CLOTH_INLINE void gatherPortable(const glm::vec4* pos, B& b) {
    for (int k = 0; k < B::V; ++k)
        for (std::uint32_t l = 0; l < B::kLanes; ++l) b.set(k, l, pos[b.vertex(l, k)]);
}

template <class B>
CLOTH_INLINE void scatterPortable(glm::vec4* pos, const B& b, std::uint32_t n) {
    for (std::uint32_t l = 0; l < n; ++l)
        for (int k = 0; k < B::V; ++k) pos[b.vertex(l, k)] = b.get(k, l);
}

#if CLOTH_X86
// SSE2: four lanes at a time through a 4x4 transpose.
template <class B>
CLOTH_INLINE void gatherSse2(const glm::vec4* pos, B& b) {
    for (int k = 0; k < B::V; ++k) {
        for (std::uint32_t h = 0; h < B::kLanes; h += 4) {
            __m128 r0 = _mm_loadu_ps(&pos[b.vertex(h + 0, k)].x);
            __m128 r1 = _mm_loadu_ps(&pos[b.vertex(h + 1, k)].x);
            __m128 r2 = _mm_loadu_ps(&pos[b.vertex(h + 2, k)].x);
            __m128 r3 = _mm_loadu_ps(&pos[b.vertex(h + 3, k)].x);
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            _mm_store_ps(&b.v[k][0][h], r0);
            _mm_store_ps(&b.v[k][1][h], r1);
            _mm_store_ps(&b.v[k][2][h], r2);
            _mm_store_ps(&b.v[k][3][h], r3);
        }
    }
}

template <class B>
CLOTH_INLINE void scatterSse2(glm::vec4* pos, const B& b) {
    for (std::uint32_t h = 0; h < B::kLanes; h += 4) {
        __m128 r[B::V][4];
        for (int k = 0; k < B::V; ++k) {
            for (int j = 0; j < 4; ++j) r[k][j] = _mm_load_ps(&b.v[k][j][h]);
            _MM_TRANSPOSE4_PS(r[k][0], r[k][1], r[k][2], r[k][3]);
        }
        for (std::uint32_t l = 0; l < 4; ++l)
            for (int k = 0; k < B::V; ++k) _mm_storeu_ps(&pos[b.vertex(h + l, k)].x, r[k][l]);
    }
}

// _MM_TRANSPOSE4_PS in each 128-bit half of a, b, c, d, into out[0..3]: its own inverse, so
// transpose8 and untranspose8 both use it. Moves and shuffles only.
__attribute__((target("avx2"))) inline void transpose4Halves(__m256 a, __m256 b, __m256 c,
                                                              __m256 d, __m256 out[4]) {
    __m256d t0 = _mm256_castps_pd(_mm256_unpacklo_ps(a, b));
    __m256d t1 = _mm256_castps_pd(_mm256_unpacklo_ps(c, d));
    __m256d t2 = _mm256_castps_pd(_mm256_unpackhi_ps(a, b));
    __m256d t3 = _mm256_castps_pd(_mm256_unpackhi_ps(c, d));
    out[0] = _mm256_castpd_ps(_mm256_unpacklo_pd(t0, t1));
    out[1] = _mm256_castpd_ps(_mm256_unpackhi_pd(t0, t1));
    out[2] = _mm256_castpd_ps(_mm256_unpacklo_pd(t2, t3));
    out[3] = _mm256_castpd_ps(_mm256_unpackhi_pd(t2, t3));
}

// AVX: eight lanes at a time; each row is written with one 32-byte store, so the lane loop's
// 32-byte loads come straight from the store buffer. Inlined into the AVX2 kernels only.
// at(l): the 16 bytes of lane l; row[j]: their word j in lanes 0..7. Moves and shuffles only,
// so any bits (a record's indices too) come through unchanged.
template <class At>
__attribute__((target("avx2"))) inline void transpose8(At at, __m256 row[4]) {
    transpose4Halves(_mm256_set_m128(at(4), at(0)), _mm256_set_m128(at(5), at(1)),
                     _mm256_set_m128(at(6), at(2)), _mm256_set_m128(at(7), at(3)), row);
}

template <class B>
__attribute__((target("avx2"))) inline void gatherAvx2(const glm::vec4* pos, B& b) {
    for (int k = 0; k < B::V; ++k) {
        for (std::uint32_t h = 0; h < B::kLanes; h += 8) {
            __m256 row[4];
            transpose8([&](std::uint32_t l) { return _mm_loadu_ps(&pos[b.vertex(h + l, k)].x); },
                       row);
            for (int j = 0; j < 4; ++j) _mm256_store_ps(&b.v[k][j][h], row[j]);
        }
    }
}

// The records' words V.. by the same transposes, 16 bytes of eight records at a time (every
// record's size is a multiple of 16: CLOTH_CHECK_SIZE), instead of a scalar copy per word and
// lane (measured at 256x256, one thread: the bending stage about 5% faster).
template <class B>
__attribute__((target("avx2"))) inline void loadParamsAvx2(B& b) {
    static_assert(B::kWords % 4 == 0);
    for (int q = B::V / 4; q < B::kWords / 4; ++q) {
        for (std::uint32_t h = 0; h < B::kLanes; h += 8) {
            __m256 row[4];
            transpose8(
                [&](std::uint32_t l) {
                    return _mm_loadu_ps(reinterpret_cast<const float*>(&b.c[h + l]) + 4 * q);
                },
                row);
            for (int j = 0; j < 4; ++j)
                if (4 * q + j >= B::V)
                    _mm256_store_ps(reinterpret_cast<float*>(&b.w[4 * q + j][h]), row[j]);
        }
    }
}

// The way back: rows x, y, z, w of eight lanes (at row[0..3]) to r[j], the 16 bytes of lane j in
// the low half and of lane j + 4 in the high half. Moves and shuffles only.
__attribute__((target("avx2"))) inline void untranspose8(const float* const row[4], __m256 r[4]) {
    transpose4Halves(_mm256_load_ps(row[0]), _mm256_load_ps(row[1]), _mm256_load_ps(row[2]),
                     _mm256_load_ps(row[3]), r);
}

template <class B>
__attribute__((target("avx2"))) inline void scatterAvx2(glm::vec4* pos, const B& b) {
    for (std::uint32_t h = 0; h < B::kLanes; h += 8) {
        __m256 r[B::V][4];  // r[k][j]: vertex k of lanes h + j (low half) and h + j + 4 (high)
        for (int k = 0; k < B::V; ++k) {
            const float* const rows[4] = {&b.v[k][0][h], &b.v[k][1][h], &b.v[k][2][h],
                                          &b.v[k][3][h]};
            untranspose8(rows, r[k]);
        }
        for (std::uint32_t l = 0; l < 4; ++l)
            for (int k = 0; k < B::V; ++k)
                _mm_storeu_ps(&pos[b.vertex(h + l, k)].x, _mm256_castps256_ps128(r[k][l]));
        for (std::uint32_t l = 0; l < 4; ++l)
            for (int k = 0; k < B::V; ++k)
                _mm_storeu_ps(&pos[b.vertex(h + 4 + l, k)].x, _mm256_extractf128_ps(r[k][l], 1));
    }
}
#endif

template <BatchIsa I, class B>
CLOTH_INLINE void gather(const glm::vec4* pos, B& b) {
#if CLOTH_X86
    if constexpr (I == BatchIsa::Avx2 || I == BatchIsa::Avx512) return gatherAvx2(pos, b);
    if constexpr (I == BatchIsa::Sse2) return gatherSse2(pos, b);
#endif
    gatherPortable(pos, b);
}

template <BatchIsa I, class B>
CLOTH_INLINE void loadParams(B& b) {
#if CLOTH_X86
    if constexpr (I == BatchIsa::Avx2 || I == BatchIsa::Avx512) return loadParamsAvx2(b);
#endif
    b.loadParams();
}

// Lanes [0, n) back to pos.
template <BatchIsa I, class B>
CLOTH_INLINE void scatter(glm::vec4* pos, const B& b, std::uint32_t n) {
#if CLOTH_X86
    if (n == B::kLanes) {
        if constexpr (I == BatchIsa::Avx2 || I == BatchIsa::Avx512) return scatterAvx2(pos, b);
        if constexpr (I == BatchIsa::Sse2) return scatterSse2(pos, b);
    }
#endif
    scatterPortable(pos, b, n);
}

// vec4 multipliers into the block's m and back (Block::kVecLambda); nothing for float ones.
template <class B>
CLOTH_INLINE void loadLambdasPortable(B& b) {
    for (std::uint32_t l = 0; l < B::kLanes; ++l)
        for (int j = 0; j < 4; ++j) b.m[j][l] = b.lambda[l][j];
}
template <class B>
CLOTH_INLINE void storeLambdasPortable(B& b) {
    for (std::uint32_t l = 0; l < B::kLanes; ++l)
        for (int j = 0; j < 4; ++j) b.lambda[l][j] = b.m[j][l];
}
#if CLOTH_X86
template <class B>
__attribute__((target("avx2"))) inline void loadLambdasAvx2(B& b) {
    for (std::uint32_t h = 0; h < B::kLanes; h += 8) {
        __m256 row[4];
        transpose8([&](std::uint32_t l) { return _mm_loadu_ps(&b.lambda[h + l].x); }, row);
        for (int j = 0; j < 4; ++j) _mm256_store_ps(&b.m[j][h], row[j]);
    }
}
template <class B>
__attribute__((target("avx2"))) inline void storeLambdasAvx2(B& b) {
    for (std::uint32_t h = 0; h < B::kLanes; h += 8) {  // as scatterAvx2, to contiguous lanes
        const float* const rows[4] = {&b.m[0][h], &b.m[1][h], &b.m[2][h], &b.m[3][h]};
        __m256 r[4];
        untranspose8(rows, r);
        for (std::uint32_t l = 0; l < 4; ++l) {
            _mm_storeu_ps(&b.lambda[h + l].x, _mm256_castps256_ps128(r[l]));
            _mm_storeu_ps(&b.lambda[h + 4 + l].x, _mm256_extractf128_ps(r[l], 1));
        }
    }
}
#endif
template <BatchIsa I, class B>
CLOTH_INLINE void loadLambdas(B& b) {
    if constexpr (B::kVecLambda) {
#if CLOTH_X86
        if constexpr (I == BatchIsa::Avx2 || I == BatchIsa::Avx512) return loadLambdasAvx2(b);
#endif
        loadLambdasPortable(b);
    }
}
template <BatchIsa I, class B>
CLOTH_INLINE void storeLambdas(B& b) {
    if constexpr (B::kVecLambda) {
#if CLOTH_X86
        if constexpr (I == BatchIsa::Avx2 || I == BatchIsa::Avx512) return storeLambdasAvx2(b);
#endif
        storeLambdasPortable(b);
    }
}

// ---- blocks and ranges ------------------------------------------------------------------------

// One block: B::kLanes records at c and multipliers at lambda, of which lanes [0, n) are stored.
// P: all of it (the solver), or a part alone for the cost floors (BatchPart).
template <BatchIsa I, class B, std::uint32_t Mode, BatchPart P = BatchPart::All>
CLOTH_INLINE void solveBlock(glm::vec4* pos, B& b, const gpu::SolveParams& params,
                             std::uint32_t n) {
    gpu::SolveParams sp = params;
    sp.mode = Mode;  // a constant, so the mode branch of the maths folds away
    if constexpr (P != BatchPart::Maths) {
        loadParams<I>(b);
        gather<I>(pos, b);
    }
    if constexpr (P != BatchPart::Move) {
        loadLambdas<I>(b);
        for (std::uint32_t l = 0; l < B::kLanes; ++l) b.solveLane(l, sp);  // vectorised
        storeLambdas<I>(b);
    }
    if constexpr (P != BatchPart::Maths) scatter<I>(pos, b, n);
}

// Constraints [begin, end) of one colour; the last, partial block runs on a copy padded with
// its first constraint, whose extra lanes are solved but not stored. BatchPart::Maths gathers
// the first block once and solves every block's lanes on it.
template <BatchIsa I, class B, std::uint32_t Mode, class C, BatchPart P = BatchPart::All>
CLOTH_INLINE void solveRange(glm::vec4* pos, const C* cs, typename B::Lambda* lambda,
                             std::uint32_t begin, std::uint32_t end, const gpu::SolveParams& sp) {
    B b;
    std::uint32_t i = begin;
    if constexpr (P == BatchPart::Maths) {
        if (end - i < B::kLanes) return;
        b.c = cs + i;
        loadParams<I>(b);
        gather<I>(pos, b);
    }
    for (; end - i >= B::kLanes; i += B::kLanes) {
        b.c = cs + i;
        b.lambda = lambda + i;
        solveBlock<I, B, Mode, P>(pos, b, sp, B::kLanes);
    }
    if constexpr (P != BatchPart::All) return;  // the floors count whole blocks only
    if (i == end) return;
    const std::uint32_t n = end - i;
    C tail[B::kLanes];
    typename B::Lambda tailLambda[B::kLanes];
    for (std::uint32_t l = 0; l < B::kLanes; ++l) {
        tail[l] = cs[i + (l < n ? l : 0)];
        tailLambda[l] = lambda[i + (l < n ? l : 0)];
    }
    b.c = tail;
    b.lambda = tailLambda;
    solveBlock<I, B, Mode>(pos, b, sp, n);
    std::copy(tailLambda, tailLambda + n, lambda + i);
}

template <BatchIsa I, class B, class C>
CLOTH_INLINE void solveRangeAnyMode(glm::vec4* pos, const C* cs, typename B::Lambda* lambda,
                                    std::uint32_t begin, std::uint32_t end,
                                    const gpu::SolveParams& sp) {
    if (sp.mode == gpu::MODE_PBD)
        solveRange<I, B, gpu::MODE_PBD>(pos, cs, lambda, begin, end, sp);
    else
        solveRange<I, B, gpu::MODE_XPBD>(pos, cs, lambda, begin, end, sp);
}

// flatten: the shared maths must be inlined into the lane loop for it to vectorise.
template <BatchIsa I, class T>
__attribute__((flatten)) void solveBlocks(glm::vec4* pos, const typename T::Item* cs,
                                          typename T::Lambda* lambda, std::uint32_t begin,
                                          std::uint32_t end, const gpu::SolveParams& sp) {
    solveRangeAnyMode<I, Block<T, kLanesOf<I>>>(pos, cs, lambda, begin, end, sp);
}
#if CLOTH_X86
template <class T, BatchPart P = BatchPart::All>
__attribute__((flatten, target("avx2"))) void solveBlocksAvx2(glm::vec4* pos,
                                                              const typename T::Item* cs,
                                                              typename T::Lambda* lambda,
                                                              std::uint32_t begin,
                                                              std::uint32_t end,
                                                              const gpu::SolveParams& sp) {
    using B = Block<T, kLanesOf<BatchIsa::Avx2>>;
    if constexpr (P == BatchPart::All)
        solveRangeAnyMode<BatchIsa::Avx2, B>(pos, cs, lambda, begin, end, sp);
    else  // the parts: XPBD only
        solveRange<BatchIsa::Avx2, B, gpu::MODE_XPBD, typename T::Item, P>(pos, cs, lambda, begin,
                                                                           end, sp);
}
// AVX-512: the same lane loop sixteen lanes per vector, with twice the registers, which the
// long bending sequence otherwise spills (measured at 256x256, one thread: the bending stage
// about 0.8 times the AVX2 kernel's time). The gather and scatter are AVX2's.
#if defined(__clang__)  // clang's way to allow 512-bit vectors; GCC's prefer-vector-width
#define CLOTH_AVX512 target("avx512f,avx512vl,avx512bw,avx512dq"), min_vector_width(512)
#else
#define CLOTH_AVX512 target("avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=512")
#endif
template <class T, BatchPart P = BatchPart::All>
__attribute__((flatten, CLOTH_AVX512)) void
solveBlocksAvx512(glm::vec4* pos, const typename T::Item* cs, typename T::Lambda* lambda,
                  std::uint32_t begin, std::uint32_t end, const gpu::SolveParams& sp) {
    using B = Block<T, kLanesOf<BatchIsa::Avx512>>;
    if constexpr (P == BatchPart::All)
        solveRangeAnyMode<BatchIsa::Avx512, B>(pos, cs, lambda, begin, end, sp);
    else  // the parts: XPBD only
        solveRange<BatchIsa::Avx512, B, gpu::MODE_XPBD, typename T::Item, P>(pos, cs, lambda,
                                                                             begin, end, sp);
}
#endif

}  // namespace

const char* batchIsaName(BatchIsa isa) {
    switch (isa) {
        case BatchIsa::Scalar:
            return "scalar";
        case BatchIsa::Portable:
            return "portable";
        case BatchIsa::Sse2:
            return "sse2";
        case BatchIsa::Avx2:
            return "avx2";
        case BatchIsa::Avx512:
            return "avx512";
    }
    return "?";
}

BatchIsa batchIsaFromName(std::string_view name) {
    for (BatchIsa isa : kBatchIsas)
        if (name == batchIsaName(isa)) return isa;
    throw Error("unknown CPU kernels '" + std::string(name) +
                "' (expected scalar, portable, sse2, avx2 or avx512)");
}

bool batchIsaAvailable(BatchIsa isa) {
    switch (isa) {
        case BatchIsa::Scalar:
        case BatchIsa::Portable:
            return true;
#if CLOTH_X86
        case BatchIsa::Sse2:
            return true;
        case BatchIsa::Avx2:
            return __builtin_cpu_supports("avx2");
        case BatchIsa::Avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                   __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
#else
        default:
            return false;
#endif
    }
    return false;
}

BatchIsa bestBatchIsa() {
    static const BatchIsa best = batchIsaAvailable(BatchIsa::Avx512) ? BatchIsa::Avx512
                                 : batchIsaAvailable(BatchIsa::Avx2) ? BatchIsa::Avx2
                                 : batchIsaAvailable(BatchIsa::Sse2) ? BatchIsa::Sse2
                                                                     : BatchIsa::Portable;
    return best;
}

template <class Item>
void solveBatch(BatchIsa isa, glm::vec4* pos, const Item* cs, BatchLambda<Item>* lambda,
                std::uint32_t begin, std::uint32_t end, const gpu::SolveParams& sp) {
    using T = gpu::ConstraintType<gpu::constraintTypeIndex<Item>>;
    CLOTH_ASSERT(batchIsaAvailable(isa));
    if (isa == BatchIsa::Scalar) {
        for (std::uint32_t i = begin; i < end; ++i)  // load, project, store, as the shader
            T::solve(pos, cs[i], lambda[i], sp);
        return;
    }
#if CLOTH_X86
    if (isa == BatchIsa::Avx512) return solveBlocksAvx512<T>(pos, cs, lambda, begin, end, sp);
    if (isa == BatchIsa::Avx2) return solveBlocksAvx2<T>(pos, cs, lambda, begin, end, sp);
    if (isa == BatchIsa::Sse2) return solveBlocks<BatchIsa::Sse2, T>(pos, cs, lambda, begin, end, sp);
#endif
    solveBlocks<BatchIsa::Portable, T>(pos, cs, lambda, begin, end, sp);
}

template <class Item>
void solveBatchPart(BatchPart part, BatchIsa isa, glm::vec4* pos, const Item* cs,
                    BatchLambda<Item>* lambda, std::uint32_t begin, std::uint32_t end,
                    const gpu::SolveParams& sp) {
    using T = gpu::ConstraintType<gpu::constraintTypeIndex<Item>>;
    if (sp.mode != gpu::MODE_XPBD) throw Error("the kernels' parts are timed in XPBD mode only");
#if CLOTH_X86
    if (part == BatchPart::All && (isa == BatchIsa::Avx512 || isa == BatchIsa::Avx2)) {
        const std::uint32_t lanes = isa == BatchIsa::Avx512 ? kLanesOf<BatchIsa::Avx512>
                                                            : kLanesOf<BatchIsa::Avx2>;
        return solveBatch(isa, pos, cs, lambda, begin, begin + (end - begin) / lanes * lanes, sp);
    }
    if (isa == BatchIsa::Avx512 && batchIsaAvailable(isa)) {
        if (part == BatchPart::Move)
            return solveBlocksAvx512<T, BatchPart::Move>(pos, cs, lambda, begin, end, sp);
        return solveBlocksAvx512<T, BatchPart::Maths>(pos, cs, lambda, begin, end, sp);
    }
    if (isa == BatchIsa::Avx2 && batchIsaAvailable(isa)) {
        if (part == BatchPart::Move)
            return solveBlocksAvx2<T, BatchPart::Move>(pos, cs, lambda, begin, end, sp);
        return solveBlocksAvx2<T, BatchPart::Maths>(pos, cs, lambda, begin, end, sp);
    }
#endif
    throw Error(std::string("the kernels' parts are timed on avx2 and avx512 only, not ") +
                batchIsaName(isa));
}

#define CLOTH_X(I, Name, name, Item, V, W, Lam)                                          \
    template void solveBatchPart<gpu::Item>(BatchPart, BatchIsa, glm::vec4*, const gpu::Item*, \
                                            BatchLambda<gpu::Item>*, std::uint32_t,            \
                                            std::uint32_t, const gpu::SolveParams&);
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X

#define CLOTH_X(I, Name, name, Item, V, W, Lam)                                          \
    template void solveBatch<gpu::Item>(BatchIsa, glm::vec4*, const gpu::Item*, BatchLambda<gpu::Item>*, \
                                        std::uint32_t, std::uint32_t, const gpu::SolveParams&);
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X

}  // namespace cloth
