// The constraint graph: one node per constraint, an edge wherever two constraints share a vertex.
// Two constraints joined by an edge must not be projected in parallel, so a colouring of this
// graph gives the parallel batches (seed thesis 5.1).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace cloth {

// The vertices of each constraint, in CSR form: constraint c touches
// vertices[offsets[c] .. offsets[c + 1]).
struct ConstraintVertices {
    std::vector<std::uint32_t> offsets{0};
    std::vector<std::uint32_t> vertices;

    std::uint32_t count() const { return static_cast<std::uint32_t>(offsets.size() - 1); }
    std::span<const std::uint32_t> of(std::uint32_t c) const {
        return {vertices.data() + offsets[c], vertices.data() + offsets[c + 1]};
    }
    void add(std::initializer_list<std::uint32_t> vs) {
        vertices.insert(vertices.end(), vs);
        offsets.push_back(static_cast<std::uint32_t>(vertices.size()));
    }
    void add(std::span<const std::uint32_t> vs) {
        vertices.insert(vertices.end(), vs.begin(), vs.end());
        offsets.push_back(static_cast<std::uint32_t>(vertices.size()));
    }
};

// Undirected simple graph in CSR form; each edge appears in both endpoints' lists. Lists hold
// no duplicates; their order is deterministic but unspecified (graphFromEdges sorts them).
struct Graph {
    std::vector<std::uint32_t> offsets{0};
    std::vector<std::uint32_t> adjacency;

    std::uint32_t nodeCount() const { return static_cast<std::uint32_t>(offsets.size() - 1); }
    std::uint64_t edgeCount() const { return adjacency.size() / 2; }
    std::uint32_t degree(std::uint32_t n) const { return offsets[n + 1] - offsets[n]; }
    std::span<const std::uint32_t> neighbours(std::uint32_t n) const {
        return {adjacency.data() + offsets[n], adjacency.data() + offsets[n + 1]};
    }
};

// Vertex -> constraints incidence (CSR, constraints ascending per vertex).
struct Incidence {
    std::vector<std::uint32_t> offsets;
    std::vector<std::uint32_t> constraints;
};
Incidence buildIncidence(const ConstraintVertices& cv, std::uint32_t vertexCount);

// Joins constraints that share at least one vertex. Every vertex index must be < vertexCount.
// O(sum over constraints of the incidences of their vertices); neighbours are listed vertex by
// vertex of the constraint, in incidence order (not sorted: sorting would double the cost).
Graph buildConstraintGraph(const ConstraintVertices& cv, std::uint32_t vertexCount);

// A graph from an explicit edge list (tests and small examples); duplicates and loops dropped.
Graph graphFromEdges(std::uint32_t nodeCount,
                     const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

}  // namespace cloth
