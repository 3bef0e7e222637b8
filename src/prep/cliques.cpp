#include "prep/cliques.h"

#include <algorithm>
#include <bit>
#include <thread>

#include "core/error.h"

namespace cloth {

namespace {

using Word = std::uint64_t;

// std::popcount becomes a library call without -mpopcnt; this stays inline everywhere.
inline std::uint32_t popcount64(Word x) {
#if defined(__POPCNT__)
    return static_cast<std::uint32_t>(std::popcount(x));
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return static_cast<std::uint32_t>((x * 0x0101010101010101ull) >> 56);
#endif
}

// One Bron-Kerbosch sub-problem per root node v: the cliques {v} + R with candidates P = v's
// later neighbours and excluded set X = v's earlier neighbours. Local nodes 0..p-1 are P, the
// rest X. rows[s] is the bit set N(s) & P over local P indices, so P & N(s) is a row operation
// and "s in N(x)" for s in P is a bit test of rows[x].
//
// Rows come from the constraints' vertices, not from neighbour lists: each element (vertex) of a
// P member gets the bit set of the P members holding it, and a node's row is the union over its
// own elements. That costs O(|S| * arity) per root instead of O(sum of degrees over P).
class SubProblem {
  public:
    SubProblem(const Graph& g, const ConstraintVertices& cv, std::uint32_t elementCount,
               std::uint32_t minSize, Cliques& out)
        : g_(g),
          cv_(cv),
          minSize_(minSize),
          out_(out),
          elementStamp_(elementCount, UINT32_MAX),
          elementLocal_(elementCount, 0) {}

    void run(std::uint32_t v, std::uint32_t rank, const std::vector<std::uint32_t>& position);

  private:
    Word* row(std::uint32_t s) { return rows_.data() + std::size_t(s) * words_; }
    Word* frame(std::uint32_t depth) {  // the P bit set of recursion level `depth`
        const std::size_t need = std::size_t(depth + 1) * words_;
        if (frames_.size() < need) frames_.resize(need);
        return frames_.data() + std::size_t(depth) * words_;
    }
    template <bool kSingle>
    void solve();
    template <bool kSingle>
    void buildRows();
    template <bool kSingle>
    void pruneX();
    // kSingle: P fits one word (the common case), so the word loops fold away.
    template <bool kSingle>
    void expand(std::uint32_t depth, std::uint32_t pCount, std::size_t xBegin, std::size_t xEnd);
    void report();

    const Graph& g_;
    const ConstraintVertices& cv_;
    const std::uint32_t minSize_;
    Cliques& out_;
    std::vector<std::uint32_t> elementStamp_, elementLocal_;
    std::vector<std::uint32_t> nodes_;  // local -> node: P then X
    std::uint32_t p_ = 0, words_ = 0, root_ = 0;
    std::vector<Word> rows_, frames_, elementRows_;
    // X sets and branch nodes of all recursion levels, stacked in flat buffers sized per root:
    // a level's X and its branch list each fit in |S| entries, and there are at most |P| + 1
    // levels.
    std::vector<std::uint32_t> xs_, branch_;
    std::size_t xTop_ = 0, branchTop_ = 0;
    std::vector<std::uint32_t> r_;  // R as local indices
};

void SubProblem::run(std::uint32_t v, std::uint32_t rank,
                     const std::vector<std::uint32_t>& position) {
    root_ = v;
    nodes_.clear();
    for (std::uint32_t w : g_.neighbours(v))
        if (position[w] > rank) nodes_.push_back(w);
    p_ = static_cast<std::uint32_t>(nodes_.size());
    if (p_ + 1 < minSize_) return;  // no clique this large has v as its earliest node
    for (std::uint32_t w : g_.neighbours(v))
        if (position[w] < rank) nodes_.push_back(w);
    words_ = std::max<std::uint32_t>(1, (p_ + 63) / 64);
    if (words_ == 1)
        solve<true>();
    else
        solve<false>();
}

template <bool kSingle>
void SubProblem::solve() {
    buildRows<kSingle>();
    Word* P = frame(0);
    std::fill_n(P, words_, 0);
    for (std::uint32_t j = 0; j < p_; ++j) P[j / 64] |= Word(1) << (j % 64);
    pruneX<kSingle>();
    r_.clear();
    branchTop_ = 0;
    const std::size_t levels = std::size_t(p_) + 2;
    if (branch_.size() < levels * (p_ + 1)) branch_.resize(levels * (p_ + 1));
    if (xs_.size() < levels * nodes_.size() + xTop_) xs_.resize(levels * nodes_.size() + xTop_);
    expand<kSingle>(0, p_, 0, xTop_);
}

// X members with no neighbour in P can neither be pivots nor survive the first branch; they
// only matter when P is empty (then {v} is not maximal).
template <bool kSingle>
void SubProblem::pruneX() {
    const std::uint32_t words = kSingle ? 1 : words_;
    if (xs_.size() < nodes_.size()) xs_.resize(nodes_.size());
    xTop_ = 0;
    for (std::uint32_t k = p_; k < nodes_.size(); ++k) {
        const Word* r = row(k);
        bool any = p_ == 0;
        for (std::uint32_t w = 0; w < words && !any; ++w) any = r[w] != 0;
        if (any) xs_[xTop_++] = k;
    }
}

template <bool kSingle>
void SubProblem::buildRows() {
    const std::uint32_t words = kSingle ? 1 : words_;
    const auto s = static_cast<std::uint32_t>(nodes_.size());
    std::size_t bound = 0;  // elements of P members, with repeats
    for (std::uint32_t j = 0; j < p_; ++j) bound += cv_.of(nodes_[j]).size();
    if (elementRows_.size() < bound * words) elementRows_.resize(bound * words);
    if (rows_.size() < std::size_t(s) * words) rows_.resize(std::size_t(s) * words);
    Word* const elementRows = elementRows_.data();
    std::uint32_t elements = 0;
    for (std::uint32_t j = 0; j < p_; ++j)
        for (std::uint32_t e : cv_.of(nodes_[j])) {
            if (elementStamp_[e] != root_) {
                elementStamp_[e] = root_;
                elementLocal_[e] = elements;
                for (std::uint32_t w = 0; w < words; ++w) elementRows[elements * words + w] = 0;
                ++elements;
            }
            elementRows[elementLocal_[e] * words + j / 64] |= Word(1) << (j % 64);
        }
    for (std::uint32_t k = 0; k < s; ++k) {
        Word* r = row(k);
        for (std::uint32_t w = 0; w < words; ++w) r[w] = 0;
        for (std::uint32_t e : cv_.of(nodes_[k])) {
            if (elementStamp_[e] != root_) continue;
            const Word* er = elementRows + elementLocal_[e] * words;
            for (std::uint32_t w = 0; w < words; ++w) r[w] |= er[w];
        }
    }
    for (std::uint32_t j = 0; j < p_; ++j) row(j)[j / 64] &= ~(Word(1) << (j % 64));  // no loops
}

template <bool kSingle>
void SubProblem::expand(std::uint32_t depth, std::uint32_t pCount, std::size_t xBegin,
                        std::size_t xEnd) {
    const std::uint32_t words = kSingle ? 1 : words_;
    // Every clique below has at most 1 + |R| + |P| nodes.
    if (1 + r_.size() + pCount < minSize_) return;
    if (pCount == 0) {
        if (xBegin == xEnd) report();
        return;
    }
    // Tomita pivot: the node of P u X with the most neighbours in P. An X node adjacent to all
    // of P ends the search: every clique below would extend by it, so none is maximal.
    const Word* P = frame(depth);
    std::uint32_t bestCount = 0;
    const Word* pivotRow = nullptr;
    auto inP = [&](const Word* r) {
        std::uint32_t c = 0;
        for (std::uint32_t w = 0; w < words; ++w) c += popcount64(P[w] & r[w]);
        return c;
    };
    for (std::size_t k = xBegin; k < xEnd; ++k) {
        const Word* r = row(xs_[k]);
        const std::uint32_t c = inP(r);
        if (c == pCount) return;
        if (!pivotRow || c > bestCount) bestCount = c, pivotRow = r;
    }
    for (std::uint32_t w = 0; w < words; ++w)
        for (Word b = P[w]; b; b &= b - 1) {
            const Word* r = row(w * 64 + std::countr_zero(b));
            const std::uint32_t c = inP(r);
            if (!pivotRow || c > bestCount) bestCount = c, pivotRow = r;
            if (c + 1 == pCount) break;  // the most a member of P can have
        }
    // Branch on P \ N(pivot); each branch node moves from P to X afterwards.
    const std::size_t branchBegin = branchTop_;
    for (std::uint32_t w = 0; w < words; ++w)
        for (Word b = P[w] & ~pivotRow[w]; b; b &= b - 1)
            branch_[branchTop_++] = w * 64 + std::countr_zero(b);
    const std::size_t branchEnd = branchTop_;
    for (std::size_t i = branchBegin; i < branchEnd; ++i) {
        const std::uint32_t s = branch_[i];
        Word* next = frame(depth + 1);  // may grow the buffer, so fetch this level's after it
        const Word* Pin = frame(depth);
        const Word* rs = row(s);
        std::uint32_t nextCount = 0;
        for (std::uint32_t w = 0; w < words; ++w) {
            next[w] = Pin[w] & rs[w];
            nextCount += popcount64(next[w]);
        }
        const std::size_t nextBegin = xTop_;
        std::uint32_t* const xs = xs_.data();
        for (std::size_t k = xBegin; k < xEnd; ++k) {
            const std::uint32_t x = xs[k];
            xs[xTop_] = x;
            xTop_ += row(x)[s / 64] >> (s % 64) & 1;
        }
        r_.push_back(s);
        expand<kSingle>(depth + 1, nextCount, nextBegin, xTop_);
        r_.pop_back();
        xTop_ = nextBegin;
        frame(depth)[s / 64] &= ~(Word(1) << (s % 64));
        --pCount;
        // This level's X is the top of the stack again (children truncate to their start).
        xs_[xTop_++] = s;
        ++xEnd;
        if (1 + r_.size() + pCount < minSize_) break;
    }
    branchTop_ = branchBegin;
}

void SubProblem::report() {
    const std::size_t begin = out_.members.size();
    out_.members.push_back(root_);
    for (std::uint32_t s : r_) out_.members.push_back(nodes_[s]);
    std::sort(out_.members.begin() + static_cast<std::ptrdiff_t>(begin), out_.members.end());
    out_.offsets.push_back(static_cast<std::uint32_t>(out_.members.size()));
}

}  // namespace

Cliques maximalCliques(const Graph& g, const ConstraintVertices& cv, const DegeneracyOrder& order,
                       std::uint32_t minSize, unsigned threads) {
    const std::uint32_t n = g.nodeCount();
    CLOTH_ASSERT(order.removal.size() == n && cv.count() == n);
    std::uint32_t elementCount = 0;
    for (std::uint32_t e : cv.vertices) elementCount = std::max(elementCount, e + 1);
    std::vector<std::uint32_t> position(n);
    for (std::uint32_t i = 0; i < n; ++i) position[order.removal[i]] = i;
    // Roots in index order (neighbouring constraints have close indices, so consecutive roots
    // share their data in cache); each clique is still found once, from its earliest node.
    // Threads take contiguous ranges of roots and their results are joined in range order, so
    // the output does not depend on the thread count.
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = std::clamp<unsigned>(threads, 1, std::max<std::uint32_t>(1, n / 4096));
    std::vector<Cliques> parts(threads);
    auto work = [&](unsigned t) {
        SubProblem sub(g, cv, elementCount, minSize, parts[t]);
        const std::uint32_t begin = std::uint32_t(std::uint64_t(n) * t / threads);
        const std::uint32_t end = std::uint32_t(std::uint64_t(n) * (t + 1) / threads);
        for (std::uint32_t v = begin; v < end; ++v) sub.run(v, position[v], position);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (std::thread& th : pool) th.join();
    Cliques out = std::move(parts[0]);
    for (unsigned t = 1; t < threads; ++t) {
        const auto base = static_cast<std::uint32_t>(out.members.size());
        out.members.insert(out.members.end(), parts[t].members.begin(), parts[t].members.end());
        for (std::uint32_t k = 1; k < parts[t].offsets.size(); ++k)
            out.offsets.push_back(base + parts[t].offsets[k]);
    }
    return out;
}

ConstraintVertices edgeElements(const Graph& g) {
    ConstraintVertices cv;
    cv.offsets.assign(std::size_t(g.nodeCount()) + 1, 0);
    // Edge (a, b) with a < b gets the element id of its place in a's list, numbered globally.
    std::vector<std::vector<std::uint32_t>> lists(g.nodeCount());
    std::uint32_t next = 0;
    for (std::uint32_t a = 0; a < g.nodeCount(); ++a)
        for (std::uint32_t b : g.neighbours(a))
            if (a < b) {
                lists[a].push_back(next);
                lists[b].push_back(next);
                ++next;
            }
    cv.vertices.clear();
    for (std::uint32_t a = 0; a < g.nodeCount(); ++a) {
        cv.vertices.insert(cv.vertices.end(), lists[a].begin(), lists[a].end());
        cv.offsets[a + 1] = static_cast<std::uint32_t>(cv.vertices.size());
    }
    return cv;
}

}  // namespace cloth
