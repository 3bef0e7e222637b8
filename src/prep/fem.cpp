#include "prep/fem.h"

#include <algorithm>
#include <array>
#include <string>

#include "core/error.h"
#include "core/orthotropic.h"
#include "prep/projective.h"
#include "prep/sewing.h"
#include "prep/springs.h"

namespace cloth {

void buildFem(const Scene& scene, const std::vector<std::uint32_t>& clothBegin, PreparedCloth& p) {
    p.femTerms.triangles.clear();
    for (const ClothDesc& c : scene.cloths) {
        if (c.material.stretchModel == StretchModel::Distance && !(c.material.stretchCompliance > 0.0f))
            throw Error("cloth '" + c.name + "': model fem takes its moduli from the material's "
                        "stretch_compliance, which is 0 (rigid); give a compliance above 0");
    }
    forEachRestTriangle(scene, clothBegin, p, [&](const RestTriangle& t) {
        const Material& m = scene.cloths[t.cloth].material;
        glm::vec4 c;
        if (m.stretchModel == StretchModel::Stvk) {
            const std::array<double, 4> k = orthotropicStiffness(m.membrane);
            c = glm::vec4(float(k[0]), float(k[1]), float(k[2]), float(k[3]));
        } else {
            const double a = m.stretchCompliance;
            c = glm::vec4(float(1.5 / a), float(1.5 / a), float(0.5 / a), float(0.5 / a));
        }
        p.femTerms.triangles.push_back({t.v0, t.v1, t.v2, t.area, t.invRest, c});
    });
    // Seams: a spring of rest length 0 per pair (a hard seam as stiff as the largest C11 or C22).
    p.springTerms.springs.clear();
    double stiffest = 0.0;
    for (const gpu::PdTriangle& t : p.femTerms.triangles)
        stiffest = std::max({stiffest, double(t.stiffness.x), double(t.stiffness.y)});
    for (const SeamPair& s : p.seamPairs)
        p.springTerms.springs.push_back(
            {std::min(s.a, s.b), std::max(s.a, s.b), 0.0f, seamStiffness(scene, s, stiffest)});
    // Fixed angles: angle springs (prep/springs.h), a hard one as stiff as the largest modulus
    // at its edge's length.
    p.springTerms.angles = angleSprings(p, stiffest);
    // Bending (the source's membrane has none): every other hinge's quadratic isometric term,
    // its weight from the material's rigidity, as PD's.
    p.femTerms.bends = hingeBendTerms(p);
}

}  // namespace cloth
