#include "prep/fem_plan.h"

#include <algorithm>

namespace cloth {

namespace {

std::uint32_t cornerVertex(const gpu::PdTriangle& t, std::uint32_t c) {
    return c == 0 ? t.v0 : c == 1 ? t.v1 : t.v2;
}

}  // namespace

FemPattern femPattern(const std::vector<gpu::PdTriangle>& triangles,
                      const std::vector<std::int32_t>& row, std::int32_t rows,
                      const std::vector<gpu::PdBend>& bends) {
    FemPattern out;
    out.rows = rows;
    const auto n = static_cast<std::uint32_t>(triangles.size());
    // Each free row's corners (3 t + c), in triangle order.
    out.cornerOffsets.assign(std::size_t(rows) + 1, 0);
    for (const gpu::PdTriangle& t : triangles)
        for (std::uint32_t c = 0; c < 3; ++c)
            if (row[cornerVertex(t, c)] >= 0) ++out.cornerOffsets[row[cornerVertex(t, c)] + 1];
    for (std::int32_t r = 0; r < rows; ++r) out.cornerOffsets[r + 1] += out.cornerOffsets[r];
    out.corners.resize(out.cornerOffsets[rows]);
    std::vector<std::uint32_t> next(out.cornerOffsets.begin(), out.cornerOffsets.end() - 1);
    for (std::uint32_t t = 0; t < n; ++t)
        for (std::uint32_t c = 0; c < 3; ++c)
            if (const std::int32_t r = row[cornerVertex(triangles[t], c)]; r >= 0)
                out.corners[next[r]++] = 3 * t + c;
    // Each free row's bend corners (4 b + c), in bend order.
    auto bendVertex = [&](std::uint32_t k) {
        const gpu::PdBend& b = bends[k / 4];
        const std::uint32_t v[4] = {b.v0, b.v1, b.v2, b.v3};
        return v[k % 4];
    };
    std::vector<std::uint32_t> bendOffsets(std::size_t(rows) + 1, 0), bendCorners;
    for (std::uint32_t k = 0; k < 4 * bends.size(); ++k)
        if (row[bendVertex(k)] >= 0 && bends[k / 4].k[k % 4] != 0.0f)
            ++bendOffsets[row[bendVertex(k)] + 1];
    for (std::int32_t r = 0; r < rows; ++r) bendOffsets[r + 1] += bendOffsets[r];
    bendCorners.resize(bendOffsets[rows]);
    next.assign(bendOffsets.begin(), bendOffsets.end() - 1);
    for (std::uint32_t k = 0; k < 4 * bends.size(); ++k)
        if (row[bendVertex(k)] >= 0 && bends[k / 4].k[k % 4] != 0.0f)
            bendCorners[next[row[bendVertex(k)]]++] = k;
    // The pattern: each row's free neighbours through its triangles and its bends, itself
    // included, sorted.
    out.offsets.assign(std::size_t(rows) + 1, 0);
    out.diagonal.assign(rows, 0);
    out.cornerBlocks.assign(3 * out.corners.size(), -1);
    std::vector<std::int32_t> columns;
    for (std::int32_t r = 0; r < rows; ++r) {
        columns.clear();
        for (std::uint32_t k = out.cornerOffsets[r]; k < out.cornerOffsets[r + 1]; ++k)
            for (std::uint32_t c = 0; c < 3; ++c)
                if (const std::int32_t j = row[cornerVertex(triangles[out.corners[k] / 3], c)];
                    j >= 0)
                    columns.push_back(j);
        for (std::uint32_t k = bendOffsets[r]; k < bendOffsets[r + 1]; ++k)
            for (std::uint32_t d = 0; d < 4; ++d)
                if (const std::int32_t j = row[bendVertex(4 * (bendCorners[k] / 4) + d)];
                    j >= 0 && bends[bendCorners[k] / 4].k[d] != 0.0f)
                    columns.push_back(j);
        std::sort(columns.begin(), columns.end());
        columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
        const auto first = static_cast<std::uint32_t>(out.columns.size());
        out.columns.insert(out.columns.end(), columns.begin(), columns.end());
        out.offsets[r + 1] = static_cast<std::uint32_t>(out.columns.size());
        auto slot = [&](std::int32_t j) {
            return first + std::uint32_t(std::lower_bound(columns.begin(), columns.end(), j) -
                                         columns.begin());
        };
        out.diagonal[r] = slot(r);
        for (std::uint32_t k = out.cornerOffsets[r]; k < out.cornerOffsets[r + 1]; ++k)
            for (std::uint32_t c = 0; c < 3; ++c)
                if (const std::int32_t j = row[cornerVertex(triangles[out.corners[k] / 3], c)];
                    j >= 0)
                    out.cornerBlocks[3 * k + c] = std::int32_t(slot(j));
        // The bends' constant blocks w k_c k_d (times I), summed in bend order.
        if (bends.empty()) continue;
        out.bendBlocks.resize(out.columns.size(), 0.0);
        for (std::uint32_t k = bendOffsets[r]; k < bendOffsets[r + 1]; ++k) {
            const gpu::PdBend& b = bends[bendCorners[k] / 4];
            const double kc = b.k[int(bendCorners[k] % 4)];
            for (std::uint32_t d = 0; d < 4; ++d)
                if (const std::int32_t j = row[bendVertex(4 * (bendCorners[k] / 4) + d)];
                    j >= 0 && b.k[d] != 0.0f)
                    out.bendBlocks[slot(j)] += double(b.weight) * kc * double(b.k[d]);
        }
    }
    return out;
}

FemPlan buildFemPlan(const PreparedCloth& p, const SpringIncidence& angles,
                     const std::vector<std::uint32_t>& attachmentOf, double h) {
    FemPlan plan;
    const std::uint32_t n = p.originalVertexCount;
    auto attachment = [&](std::uint32_t i) -> const gpu::Attachment* {
        if (attachmentOf.empty() || attachmentOf[i] == kNoSpringAttachment) return nullptr;
        return &p.attachments[attachmentOf[i]];
    };
    plan.row.assign(n, -1);
    for (std::uint32_t i = 0; i < n; ++i) {
        const gpu::Attachment* a = attachment(i);
        if (p.positions[i].w > 0.0f && !(a && a->param == 0.0f)) plan.row[i] = plan.rows++;
    }
    plan.cornerOffsets.assign(n + 1, 0);
    for (const gpu::PdTriangle& t : p.femTerms.triangles)
        for (std::uint32_t v : {t.v0, t.v1, t.v2}) ++plan.cornerOffsets[v + 1];
    for (std::uint32_t i = 0; i < n; ++i) plan.cornerOffsets[i + 1] += plan.cornerOffsets[i];
    plan.corners.resize(plan.cornerOffsets[n]);
    std::vector<std::uint32_t> next(plan.cornerOffsets.begin(), plan.cornerOffsets.end() - 1);
    for (std::uint32_t t = 0; t < p.femTerms.triangles.size(); ++t) {
        const gpu::PdTriangle& k = p.femTerms.triangles[t];
        plan.corners[next[k.v0]++] = 3 * t;
        plan.corners[next[k.v1]++] = 3 * t + 1;
        plan.corners[next[k.v2]++] = 3 * t + 2;
    }
    plan.springOffsets.assign(n + 1, 0);
    for (const gpu::Spring& k : p.springTerms.springs)
        ++plan.springOffsets[k.a + 1], ++plan.springOffsets[k.b + 1];
    for (std::uint32_t i = 0; i < n; ++i) plan.springOffsets[i + 1] += plan.springOffsets[i];
    plan.springs.resize(plan.springOffsets[n]);
    next.assign(plan.springOffsets.begin(), plan.springOffsets.end() - 1);
    for (const gpu::Spring& k : p.springTerms.springs) {
        plan.springs[next[k.a]++] = {k.b, double(k.stiffness)};
        plan.springs[next[k.b]++] = {k.a, double(k.stiffness)};
    }
    // Per free row, the angle springs' blocks of h^2 w g_c g_d^T it takes (slot 16 a + 4 c + d
    // of the solver's blocks).
    if (!p.springTerms.angles.empty()) {
        plan.stencils.offsets.push_back(0);
        for (std::uint32_t i = 0; i < n; ++i) {
            if (plan.row[i] < 0) continue;
            for (std::uint32_t k = angles.offsets[i]; k < angles.offsets[i + 1]; ++k) {
                const std::uint32_t a = angles.springs[k] / 4, c = angles.springs[k] % 4;
                const gpu::FixedAngleConstraint& t = p.springTerms.angles[a];
                const std::uint32_t v[4] = {t.v0, t.v1, t.v2, t.v3};
                for (std::uint32_t d = 0; d < 4; ++d)
                    if (const std::int32_t j = plan.row[v[d]]; j >= 0) {
                        plan.stencils.columns.push_back(j);
                        plan.stencils.slots.push_back(16 * a + 4 * c + d);
                    }
            }
            plan.stencils.offsets.push_back(std::uint32_t(plan.stencils.columns.size()));
        }
    }
    if (!p.springTerms.springs.empty()) plan.couplings.offsets.push_back(0);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (plan.row[i] < 0) continue;
        plan.rowVertex.push_back(i);
        plan.mass.push_back(1.0 / double(p.positions[i].w));
        // A compliant attachment: stiffness w = 1 / compliance, h^2 w on the diagonal.
        const gpu::Attachment* a = attachment(i);
        const double w = a ? 1.0 / double(a->param) : 0.0;
        plan.attachment.push_back(w);
        plan.extra.push_back(h * h * w);
        // A seam's spring w: h^2 w on the diagonal, -h^2 w to the other end's row when it is
        // free (a pinned or carried end does not move in the solve).
        if (plan.couplings.offsets.empty()) continue;
        for (std::uint32_t k = plan.springOffsets[i]; k < plan.springOffsets[i + 1]; ++k) {
            plan.extra.back() += h * h * plan.springs[k].stiffness;
            if (const std::int32_t j = plan.row[plan.springs[k].other]; j >= 0) {
                plan.couplings.columns.push_back(j);
                plan.couplings.weights.push_back(h * h * plan.springs[k].stiffness);
            }
        }
        plan.couplings.offsets.push_back(std::uint32_t(plan.couplings.columns.size()));
    }
    plan.pattern = femPattern(p.femTerms.triangles, plan.row, plan.rows, p.femTerms.bends);
    return plan;
}

}  // namespace cloth
