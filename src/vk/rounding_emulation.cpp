#include "vk/rounding_emulation.h"

#include <cstring>
#include <initializer_list>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/error.h"

namespace cloth::vk {

namespace {

constexpr std::uint32_t kMagic = 0x07230203u;
constexpr std::size_t kHeaderWords = 5;

// Opcodes (SPIR-V 1.6 unified specification, section 3.52).
enum Op : std::uint32_t {
    kOpExtInstImport = 11,
    kOpExtInst = 12,
    kOpTypeBool = 20,
    kOpTypeInt = 21,
    kOpTypeFloat = 22,
    kOpTypeVector = 23,
    kOpConstant = 43,
    kOpConstantComposite = 44,
    kOpFunction = 54,
    kOpDecorate = 71,
    kOpBitcast = 124,
    kOpIAdd = 128,
    kOpISub = 130,
    kOpIMul = 132,
    kOpFDiv = 136,
    kOpUMod = 137,
    kOpLogicalAnd = 167,
    kOpSelect = 169,
    kOpUGreaterThan = 172,
    kOpULessThan = 176,
    kOpShiftRightLogical = 194,
    kOpBitwiseXor = 198,
    kOpBitwiseAnd = 199,
    kOpDecorateId = 332,
    kOpDecorateString = 5632,
};

// GLSL.std.450 instructions whose precision the Vulkan specification bounds by division and
// square root.
constexpr std::uint32_t kSqrt = 31, kInverseSqrt = 32, kLength = 66, kDistance = 67,
                        kNormalize = 69;

constexpr std::uint32_t kMagnitudeMask = 0x7fffffffu;
constexpr std::uint32_t kInfinity = 0x7f800000u;
// The largest offset, in ULP, of each instruction's results. The Vulkan specification allows
// OpFDiv 2.5 ULP, so 2 on a correctly rounded result stays within it; InverseSqrt 2 ULP, so 1
// (lavapipe's is 1 / sqrt: two roundings). Sqrt, Length, Distance and Normalize inherit bounds
// larger than 2 ULP from division and inversesqrt.
std::uint32_t maxUlp(std::uint32_t op, std::uint32_t instruction) {
    return op == kOpExtInst && instruction == kInverseSqrt ? 1 : 2;
}

// A perturbed result: where its instruction is, its float type's component count, its ids.
struct Site {
    std::size_t at = 0;      // word index of the instruction
    std::uint32_t type = 0;  // the float (vector) type
    std::uint32_t components = 1;
    std::uint32_t ulps = 2;    // the largest offset
    std::uint32_t result = 0;  // the id the module reads, now the perturbed value's
    std::uint32_t exact = 0;   // fresh id: the instruction's own result
};

bool isGlslStd450(std::span<const std::uint32_t> operands) {
    static constexpr char kName[] = "GLSL.std.450";
    // A literal string: its bytes in little-endian words, nul-terminated.
    return operands.size() * 4 >= sizeof kName &&
           std::memcmp(operands.data(), kName, sizeof kName) == 0;
}

// The per-site constant: the seed and the site's index, mixed (a 32-bit finaliser in the style of
// MurmurHash3's) so that neighbouring sites and seeds get unrelated offsets.
std::uint32_t siteKey(std::uint32_t seed, std::uint32_t site) {
    std::uint32_t x = seed * 0x9e3779b9u + (site + 1u) * 0x85ebca6bu;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

class Rewriter {
  public:
    Rewriter(std::span<const std::uint32_t> words, std::uint32_t seed)
        : in_(words), seed_(seed), bound_(words[3]) {}

    std::vector<std::uint32_t> run() {
        scan();
        if (sites_.empty()) return {in_.begin(), in_.end()};
        declareTypesAndConstants();
        return emit();
    }

  private:
    // Types the module declares, the GLSL.std.450 imports, the sites, the first function.
    void scan() {
        for (std::size_t i = kHeaderWords; i < in_.size();) {
            const std::uint32_t count = in_[i] >> 16, op = in_[i] & 0xffffu;
            if (count == 0 || i + count > in_.size())
                throw Error("rounding emulation: malformed SPIR-V instruction at word " +
                            std::to_string(i));
            const std::span<const std::uint32_t> w = in_.subspan(i, count);
            switch (op) {
                case kOpExtInstImport:
                    if (count >= 3 && isGlslStd450(w.subspan(2))) glsl_.push_back(w[1]);
                    break;
                case kOpTypeBool:
                    boolType_ = w[1];
                    break;
                case kOpTypeInt:
                    if (count >= 4 && w[2] == 32 && w[3] == 0) uintType_ = w[1];
                    break;
                case kOpTypeFloat:
                    if (count == 3 && w[2] == 32) float32_.insert({w[1], 1u});
                    break;
                case kOpTypeVector:
                    if (count < 4) break;
                    if (auto f = float32_.find(w[2]); f != float32_.end() && f->second == 1)
                        float32_.insert({w[1], w[3]});
                    if (uintType_ && w[2] == uintType_) uintVectors_[w[3]] = w[1];
                    if (boolType_ && w[2] == boolType_) boolVectors_[w[3]] = w[1];
                    break;
                case kOpFunction:
                    if (!firstFunction_) firstFunction_ = i;
                    break;
                case kOpFDiv:
                    if (count == 5) addSite(i, w[1], w[2], maxUlp(op, 0));
                    break;
                case kOpExtInst:
                    if (count >= 5 && isPerturbed(w[3], w[4]))
                        addSite(i, w[1], w[2], maxUlp(op, w[4]));
                    break;
                default:
                    break;
            }
            i += count;
        }
    }

    bool isPerturbed(std::uint32_t set, std::uint32_t instruction) const {
        bool glsl = false;
        for (std::uint32_t id : glsl_) glsl = glsl || id == set;
        return glsl &&
               (instruction == kSqrt || instruction == kInverseSqrt || instruction == kLength ||
                instruction == kDistance || instruction == kNormalize);
    }

    void addSite(std::size_t at, std::uint32_t type, std::uint32_t result, std::uint32_t ulps) {
        auto f = float32_.find(type);
        if (f == float32_.end()) return;  // 16- or 64-bit floats: left as they are
        sites_.push_back({at, type, f->second, ulps, result, 0});
    }

    std::uint32_t fresh() { return bound_++; }

    void declare(std::uint32_t op, std::initializer_list<std::uint32_t> operands) {
        append(globals_, op, operands);
    }

    static void append(std::vector<std::uint32_t>& out, std::uint32_t op,
                       std::initializer_list<std::uint32_t> operands) {
        out.push_back(static_cast<std::uint32_t>((operands.size() + 1) << 16) | op);
        out.insert(out.end(), operands);
    }

    // The unsigned (or bool) type of `components` components, declared unless the module has it.
    std::uint32_t uintType(std::uint32_t components) {
        if (!uintType_) declare(kOpTypeInt, {uintType_ = fresh(), 32, 0});
        if (components == 1) return uintType_;
        std::uint32_t& v = uintVectors_[components];
        if (!v) declare(kOpTypeVector, {v = fresh(), uintType_, components});
        return v;
    }
    std::uint32_t boolType(std::uint32_t components) {
        if (!boolType_) declare(kOpTypeBool, {boolType_ = fresh()});
        if (components == 1) return boolType_;
        std::uint32_t& v = boolVectors_[components];
        if (!v) declare(kOpTypeVector, {v = fresh(), boolType_, components});
        return v;
    }
    // An unsigned constant, splat to `components` components.
    std::uint32_t constant(std::uint32_t value, std::uint32_t components) {
        std::uint32_t& id = constants_[{value, components}];
        if (id) return id;
        if (components == 1) {
            declare(kOpConstant, {uintType(1), id = fresh(), value});
            return id;
        }
        const std::uint32_t scalar = constant(value, 1), type = uintType(components);
        id = fresh();
        globals_.push_back(((3 + components) << 16) | kOpConstantComposite);
        globals_.insert(globals_.end(), {type, id});
        for (std::uint32_t c = 0; c < components; ++c) globals_.push_back(scalar);
        return id;
    }

    // Types and constants every site needs, declared before the first function; fresh ids for the
    // instructions' own results.
    void declareTypesAndConstants() {
        if (!firstFunction_)
            throw Error("rounding emulation: float arithmetic outside any function");
        for (std::uint32_t s = 0; s < sites_.size(); ++s) {
            Site& site = sites_[s];
            const std::uint32_t n = site.components, m = site.ulps;
            uintType(n);
            boolType(n);
            for (std::uint32_t v :
                 {kMagnitudeMask, 0x7feb352du, 15u, 0x846ca68bu, 16u, 2 * m + 1, m, kInfinity - m})
                constant(v, n);
            keys_.push_back(constant(siteKey(seed_, s), n));
            site.exact = fresh();
            renamed_[site.result] = site.exact;
        }
    }

    // The instructions after a site: its exact result, read as bits u, becomes
    //   u + (hash(u ^ key) mod (2m + 1)) - m   where m < (u & 0x7fffffff) < infinity - m, else u
    // (m: the site's largest offset, 2 or 1).
    void perturb(std::vector<std::uint32_t>& out, const Site& site, std::uint32_t key) {
        const std::uint32_t n = site.components, m = site.ulps, u32 = uintType(n), b = boolType(n);
        auto value = [&](std::uint32_t op, std::initializer_list<std::uint32_t> operands) {
            const std::uint32_t id = fresh();
            std::vector<std::uint32_t> w{u32, id};
            w.insert(w.end(), operands);
            out.push_back(static_cast<std::uint32_t>((w.size() + 1) << 16) | op);
            out.insert(out.end(), w.begin(), w.end());
            return id;
        };
        auto test = [&](std::uint32_t op, std::uint32_t a, std::uint32_t c) {
            const std::uint32_t id = fresh();
            append(out, op, {b, id, a, c});
            return id;
        };
        const std::uint32_t bits = value(kOpBitcast, {site.exact});
        const std::uint32_t magnitude = value(kOpBitwiseAnd, {bits, constant(kMagnitudeMask, n)});
        // A 32-bit integer hash (Chris Wellons' lowbias32) of the bits and the site's key.
        std::uint32_t h = value(kOpBitwiseXor, {bits, key});
        h = value(kOpIMul, {h, constant(0x7feb352du, n)});
        h = value(kOpBitwiseXor, {h, value(kOpShiftRightLogical, {h, constant(15, n)})});
        h = value(kOpIMul, {h, constant(0x846ca68bu, n)});
        h = value(kOpBitwiseXor, {h, value(kOpShiftRightLogical, {h, constant(16, n)})});
        const std::uint32_t steps = value(kOpUMod, {h, constant(2 * m + 1, n)});
        const std::uint32_t up = value(kOpIAdd, {bits, steps});
        const std::uint32_t moved = value(kOpISub, {up, constant(m, n)});
        const std::uint32_t aboveZero = test(kOpUGreaterThan, magnitude, constant(m, n));
        const std::uint32_t belowInfinity =
            test(kOpULessThan, magnitude, constant(kInfinity - m, n));
        const std::uint32_t room = test(kOpLogicalAnd, aboveZero, belowInfinity);
        const std::uint32_t chosen = value(kOpSelect, {room, moved, bits});
        append(out, kOpBitcast, {site.type, site.result, chosen});
    }

    std::vector<std::uint32_t> emit() {
        std::vector<std::uint32_t> out(in_.begin(), in_.begin() + kHeaderWords);
        out.reserve(in_.size() + globals_.size() + sites_.size() * 80);
        std::size_t next = 0;  // the next site
        const std::size_t declared = globals_.size();
        for (std::size_t i = kHeaderWords; i < in_.size();) {
            const std::uint32_t count = in_[i] >> 16, op = in_[i] & 0xffffu;
            if (i == firstFunction_) out.insert(out.end(), globals_.begin(), globals_.end());
            const std::size_t start = out.size();
            out.insert(out.end(), in_.begin() + i, in_.begin() + i + count);
            // Decorations (NoContraction, RelaxedPrecision) belong to the arithmetic: they follow
            // it to its fresh id. Debug names stay on the id the module reads.
            if (op == kOpDecorate || op == kOpDecorateId || op == kOpDecorateString)
                if (auto r = renamed_.find(out[start + 1]); r != renamed_.end())
                    out[start + 1] = r->second;
            if (next < sites_.size() && sites_[next].at == i) {
                out[start + 2] = sites_[next].exact;
                perturb(out, sites_[next], keys_[next]);
                ++next;
            }
            i += count;
        }
        CLOTH_ASSERT(globals_.size() == declared);  // perturb() found every constant declared
        out[3] = bound_;
        return out;
    }

    std::span<const std::uint32_t> in_;
    std::uint32_t seed_;
    std::uint32_t bound_;
    std::vector<std::uint32_t> glsl_;                           // GLSL.std.450 import ids
    std::unordered_map<std::uint32_t, std::uint32_t> float32_;  // type id -> components
    std::uint32_t uintType_ = 0, boolType_ = 0;
    std::map<std::uint32_t, std::uint32_t> uintVectors_, boolVectors_;  // components -> type id
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> constants_;
    std::size_t firstFunction_ = 0;
    std::vector<Site> sites_;
    std::vector<std::uint32_t> keys_;                           // per site: its key constant
    std::unordered_map<std::uint32_t, std::uint32_t> renamed_;  // result -> exact
    std::vector<std::uint32_t> globals_;                        // new types and constants
};

}  // namespace

std::vector<std::uint32_t> withEmulatedRounding(std::span<const std::uint32_t> words,
                                                std::uint32_t seed) {
    if (words.size() < kHeaderWords || words[0] != kMagic || (words[1] >> 16) != 1)
        throw Error("rounding emulation: not a SPIR-V module");
    return Rewriter(words, seed).run();
}

}  // namespace cloth::vk
