#include "render/scene_renderer.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/error.h"
#include "render/collider_mesh.h"
#include "render/descriptor_writer.h"
#include "render/pipeline.h"

namespace cloth::render {

namespace {

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkFormat kNormalFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
constexpr VkFormat kAlbedoFormat = VK_FORMAT_R8G8B8A8_SRGB;
constexpr VkFormat kAoFormat = VK_FORMAT_R8_UNORM;
constexpr VkFormat kShadowFormat = VK_FORMAT_D32_SFLOAT;

enum Pass : std::uint32_t { kShadow, kGBuffer, kSsao, kBlur, kLighting };

constexpr VkShaderStageFlags kVertFrag = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
constexpr VkDescriptorType kUbo = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
constexpr VkDescriptorType kSsbo = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
constexpr VkDescriptorType kTex = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;

vk::Buffer hostBuffer(const vk::Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                      std::string_view name) {
    return vk::Buffer(ctx, std::max<VkDeviceSize>(size, 16), usage,
                      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0,
                      name);
}

// A device-local buffer holding `bytes` of `data` (at least 16 bytes: empty arrays stay valid).
vk::Buffer staticBuffer(const vk::Context& ctx, vk::OneShot& once, const void* data,
                        std::size_t bytes, VkBufferUsageFlags usage, std::string_view name) {
    vk::Buffer b(ctx, std::max<VkDeviceSize>(bytes, 16), usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                 VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, name);
    vk::upload(ctx, once, b, data, bytes);
    return b;
}

VkExtent2D half(VkExtent2D e) {
    return {std::max(1u, e.width / 2), std::max(1u, e.height / 2)};
}

struct Slot {
    vk::Buffer uniforms;
    vk::Buffer cpuPositions;
    vk::Buffer cpuNormals;
    vk::Buffer colliderInstances;  // ColliderInstance per collider, then the automatic ground
    VkDescriptorSet geometry = VK_NULL_HANDLE;
    VkDescriptorSet ssao = VK_NULL_HANDLE;
    VkDescriptorSet blur = VK_NULL_HANDLE;
    VkDescriptorSet lighting = VK_NULL_HANDLE;
    GpuTimer timer;
};

}  // namespace

bool isSrgbFormat(VkFormat f) {
    return f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_B8G8R8A8_SRGB ||
           f == VK_FORMAT_A8B8G8R8_SRGB_PACK32;
}

struct SceneRenderer::Impl {
    std::shared_ptr<vk::Context> ctx;
    OutputDesc output;
    ShadingSettings shading;

    vk::Unique<VkDescriptorSetLayout> geometryLayout, ssaoLayout, blurLayout, lightingLayout;
    vk::Unique<VkPipelineLayout> geometryPl, ssaoPl, blurPl, lightingPl;
    vk::Unique<VkRenderPass> shadowPass, gbufferPass, aoPass, outputPass;
    vk::Unique<VkPipeline> shadowPipe, colliderShadowPipe, planeShadowPipe, clothPipe, groundPipe,
        colliderPipe, markerPipe, ssaoPipe, blurPipe, lightingPipe;
    vk::Unique<VkSampler> nearest, linear, shadowSampler;
    Image shadowMap;
    vk::Unique<VkFramebuffer> shadowFb;

    VkExtent2D extent{};
    Image depth, normal, albedo, aoRaw, ao;
    vk::Unique<VkFramebuffer> gbufferFb, ssaoFb, blurFb;
    std::vector<vk::Unique<VkFramebuffer>> outputFbs;

    ClothDrawData cloth;
    bool hasCloth = false;
    std::optional<ExternalVertexBuffers> gpu;
    vk::Buffer indices, uvs, markers, looks;  // looks: ClothLook per cloth
    vk::Buffer colliderVertices, colliderIndices;

    vk::Unique<VkDescriptorPool> pool;
    std::vector<Slot> slots;

    Impl(std::shared_ptr<vk::Context> c, const OutputDesc& o, const ShadingSettings& s,
         std::uint32_t frames)
        : ctx(std::move(c)), output(o), shading(s) {
        checkFormats();
        createLayouts();
        createPasses();
        createPipelines();
        nearest = makeSampler(*ctx, Filter::Nearest, false, "sampler nearest");
        linear = makeSampler(*ctx, Filter::Linear, false, "sampler linear");
        const bool linearShadow =
            formatSupports(*ctx, kShadowFormat, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
        shadowSampler = makeSampler(*ctx, linearShadow ? Filter::Linear : Filter::Nearest, true,
                                    "sampler shadow");
        const std::uint32_t size = shading.shadowMapSize;
        shadowMap = Image(*ctx, {size, size}, kShadowFormat,
                          VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                          "shadow map");
        const VkImageView sv = shadowMap.view();
        shadowFb = makeFramebuffer(*ctx, shadowPass.get(), {&sv, 1}, {size, size}, "shadow fb");
        createSlots(frames);
    }

    void checkFormats() {
        const VkFormatFeatureFlags sampled = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
        auto need = [&](VkFormat f, VkFormatFeatureFlags features, const char* what) {
            if (!formatSupports(*ctx, f, features))
                throw Error(std::string("the Vulkan device ") + ctx->info().name +
                            " cannot use the image format the renderer needs for " + what);
        };
        need(kDepthFormat, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | sampled, "depth");
        need(kNormalFormat, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | sampled, "normals");
        need(kAlbedoFormat, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | sampled, "albedo");
        need(kAoFormat, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | sampled, "occlusion");
        need(output.format, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT, "the output");
    }

    void createLayouts() {
        const BindingDesc geometry[] = {
            {RBIND_FRAME, kUbo, kVertFrag},
            {RBIND_POSITIONS, kSsbo, VK_SHADER_STAGE_VERTEX_BIT},
            {RBIND_NORMALS, kSsbo, VK_SHADER_STAGE_VERTEX_BIT},
            {RBIND_UVS, kSsbo, VK_SHADER_STAGE_VERTEX_BIT},
            {RBIND_MARKERS, kSsbo, VK_SHADER_STAGE_VERTEX_BIT},
            {RBIND_COLLIDER_VERTICES, kSsbo, VK_SHADER_STAGE_VERTEX_BIT},
            {RBIND_COLLIDER_INSTANCES, kSsbo, VK_SHADER_STAGE_VERTEX_BIT},
            {RBIND_CLOTH_LOOKS, kSsbo, VK_SHADER_STAGE_FRAGMENT_BIT}};
        geometryLayout = makeSetLayout(*ctx, geometry, "geometry set layout");
        auto screen = [&](std::uint32_t textures, const char* name) {
            std::vector<BindingDesc> b{{RBIND_FRAME, kUbo, VK_SHADER_STAGE_FRAGMENT_BIT}};
            for (std::uint32_t i = 0; i < textures; ++i)
                b.push_back({RBIND_TEX0 + i, kTex, VK_SHADER_STAGE_FRAGMENT_BIT});
            return makeSetLayout(*ctx, b, name);
        };
        ssaoLayout = screen(2, "ssao set layout");
        blurLayout = screen(2, "ssao blur set layout");
        lightingLayout = screen(5, "lighting set layout");
        geometryPl = makePipelineLayout(*ctx, geometryLayout.get(), "geometry pipeline layout");
        ssaoPl = makePipelineLayout(*ctx, ssaoLayout.get(), "ssao pipeline layout");
        blurPl = makePipelineLayout(*ctx, blurLayout.get(), "ssao blur pipeline layout");
        lightingPl = makePipelineLayout(*ctx, lightingLayout.get(), "lighting pipeline layout");
    }

    void createPasses() {
        const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        const VkAttachmentLoadOp clear = VK_ATTACHMENT_LOAD_OP_CLEAR;
        shadowPass =
            makeRenderPass(*ctx, {}, AttachmentDesc{kShadowFormat, clear, read}, "shadow pass");
        const AttachmentDesc gbuffer[] = {{kNormalFormat, clear, read},
                                          {kAlbedoFormat, clear, read}};
        gbufferPass = makeRenderPass(*ctx, gbuffer, AttachmentDesc{kDepthFormat, clear, read},
                                     "gbuffer pass");
        const AttachmentDesc ao[] = {{kAoFormat, clear, read}};
        aoPass = makeRenderPass(*ctx, ao, std::nullopt, "ao pass");
        const AttachmentDesc out[] = {
            {output.format, VK_ATTACHMENT_LOAD_OP_DONT_CARE, output.finalLayout}};
        outputPass = makeRenderPass(*ctx, out, std::nullopt, "output pass");
    }

    void createPipelines() {
        PipelineDesc d;
        d.layout = geometryPl.get();
        d.renderPass = shadowPass.get();
        d.vertexShader = "shadow.vert";
        d.colourAttachments = 0;
        d.depthTest = d.depthWrite = true;
        d.depthBias = true;
        d.name = "shadow pipeline";
        shadowPipe = makePipeline(*ctx, d);
        d.vertexShader = "collider_shadow.vert";
        d.name = "collider shadow pipeline";
        colliderShadowPipe = makePipeline(*ctx, d);
        d.vertexShader = "ground_shadow.vert";
        d.name = "plane shadow pipeline";
        planeShadowPipe = makePipeline(*ctx, d);

        d = PipelineDesc{};
        d.layout = geometryPl.get();
        d.renderPass = gbufferPass.get();
        d.colourAttachments = 2;
        d.depthTest = d.depthWrite = true;
        d.vertexShader = "cloth.vert";
        d.fragmentShader = "cloth.frag";
        d.name = "cloth pipeline";
        clothPipe = makePipeline(*ctx, d);
        d.vertexShader = "ground.vert";
        d.fragmentShader = "ground.frag";
        d.name = "ground pipeline";
        groundPipe = makePipeline(*ctx, d);
        d.vertexShader = "collider.vert";
        d.fragmentShader = "collider.frag";
        d.name = "collider pipeline";
        colliderPipe = makePipeline(*ctx, d);
        d.vertexShader = "marker.vert";
        d.fragmentShader = "marker.frag";
        d.cull = VK_CULL_MODE_BACK_BIT;
        d.name = "marker pipeline";
        markerPipe = makePipeline(*ctx, d);

        d = PipelineDesc{};
        d.vertexShader = "fullscreen.vert";
        d.renderPass = aoPass.get();
        d.layout = ssaoPl.get();
        d.fragmentShader = "ssao.frag";
        d.name = "ssao pipeline";
        ssaoPipe = makePipeline(*ctx, d);
        d.layout = blurPl.get();
        d.fragmentShader = "ssao_blur.frag";
        d.name = "ssao blur pipeline";
        blurPipe = makePipeline(*ctx, d);
        d.layout = lightingPl.get();
        d.renderPass = outputPass.get();
        d.fragmentShader = "lighting.frag";
        d.name = "lighting pipeline";
        lightingPipe = makePipeline(*ctx, d);
    }

    void createSlots(std::uint32_t frames) {
        VkDescriptorPoolSize sizes[] = {
            {kUbo, 4 * frames}, {kSsbo, 7 * frames}, {kTex, 9 * frames}};
        VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        info.maxSets = 4 * frames;
        info.poolSizeCount = 3;
        info.pPoolSizes = sizes;
        VkDescriptorPool p = VK_NULL_HANDLE;
        VK_CHECK(vkCreateDescriptorPool(ctx->device(), &info, nullptr, &p));
        pool = vk::Unique<VkDescriptorPool>(ctx->device(), p);
        ctx->name(p, "render descriptor pool");

        slots.resize(frames);
        for (std::uint32_t i = 0; i < frames; ++i) {
            Slot& s = slots[i];
            const std::string n = " [" + std::to_string(i) + "]";
            s.uniforms = hostBuffer(*ctx, sizeof(gpu::FrameUniforms),
                                    VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, "frame uniforms" + n);
            VkDescriptorSetLayout layouts[] = {geometryLayout.get(), ssaoLayout.get(),
                                               blurLayout.get(), lightingLayout.get()};
            VkDescriptorSet sets[4];
            VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
            alloc.descriptorPool = pool.get();
            alloc.descriptorSetCount = 4;
            alloc.pSetLayouts = layouts;
            VK_CHECK(vkAllocateDescriptorSets(ctx->device(), &alloc, sets));
            s.geometry = sets[0];
            s.ssao = sets[1];
            s.blur = sets[2];
            s.lighting = sets[3];
            ctx->name(s.geometry, "geometry set" + n);
            ctx->name(s.lighting, "lighting set" + n);
            s.timer = GpuTimer(*ctx, kRenderPassNames, "render timestamps" + n);
        }
    }

    BufferSlice whole(const vk::Buffer& b) const { return {b.get(), 0, b.size()}; }

    void writeGeometrySets() {
        DescriptorWriter w(ctx->device());
        for (Slot& s : slots) {
            BufferSlice pos = gpu ? gpu->positions : whole(s.cpuPositions);
            BufferSlice nrm = gpu ? gpu->normals : whole(s.cpuNormals);
            w.buffer(s.geometry, RBIND_FRAME, kUbo, whole(s.uniforms));
            w.buffer(s.geometry, RBIND_POSITIONS, kSsbo, pos);
            w.buffer(s.geometry, RBIND_NORMALS, kSsbo, nrm);
            w.buffer(s.geometry, RBIND_UVS, kSsbo, whole(uvs));
            w.buffer(s.geometry, RBIND_MARKERS, kSsbo, whole(markers));
            w.buffer(s.geometry, RBIND_COLLIDER_VERTICES, kSsbo, whole(colliderVertices));
            w.buffer(s.geometry, RBIND_COLLIDER_INSTANCES, kSsbo, whole(s.colliderInstances));
            w.buffer(s.geometry, RBIND_CLOTH_LOOKS, kSsbo, whole(looks));
            w.flush();
        }
    }

    void writeScreenSets() {
        DescriptorWriter w(ctx->device());
        for (Slot& s : slots) {
            const BufferSlice ubo = whole(s.uniforms);
            w.buffer(s.ssao, RBIND_FRAME, kUbo, ubo);
            w.image(s.ssao, RBIND_TEX0, depth.view(), nearest.get());
            w.image(s.ssao, RBIND_TEX0 + 1, normal.view(), nearest.get());
            w.buffer(s.blur, RBIND_FRAME, kUbo, ubo);
            w.image(s.blur, RBIND_TEX0, aoRaw.view(), nearest.get());
            w.image(s.blur, RBIND_TEX0 + 1, depth.view(), nearest.get());
            w.buffer(s.lighting, RBIND_FRAME, kUbo, ubo);
            w.image(s.lighting, RBIND_TEX0, depth.view(), nearest.get());
            w.image(s.lighting, RBIND_TEX0 + 1, normal.view(), nearest.get());
            w.image(s.lighting, RBIND_TEX0 + 2, albedo.view(), nearest.get());
            w.image(s.lighting, RBIND_TEX0 + 3, ao.view(), linear.get());
            w.image(s.lighting, RBIND_TEX0 + 4, shadowMap.view(), shadowSampler.get());
            w.flush();
        }
    }

    void setCloth(const ClothDrawData& c, std::optional<ExternalVertexBuffers> g) {
        ctx->waitIdle();
        cloth = c;
        gpu = std::move(g);
        vk::OneShot once(*ctx, "render upload");
        indices = staticBuffer(*ctx, once, cloth.triangles.data(),
                               cloth.triangles.size() * sizeof(glm::uvec3),
                               VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "cloth indices");
        uvs = staticBuffer(*ctx, once, cloth.uvs.data(), cloth.uvs.size() * sizeof(glm::vec2),
                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "cloth uvs");
        looks = staticBuffer(*ctx, once, cloth.looks.data(),
                             cloth.looks.size() * sizeof(gpu::ClothLook),
                             VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "cloth looks");
        std::vector<gpu::Marker> list = cloth.markers;
        list.push_back({0, gpu::MARKER_GRAB});  // drawn only while grabbing
        list.push_back({0, gpu::MARKER_GRAB_TARGET});
        markers = staticBuffer(*ctx, once, list.data(), list.size() * sizeof(gpu::Marker),
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "markers");
        const ColliderDrawData& col = cloth.colliders;
        colliderVertices = staticBuffer(*ctx, once, col.vertices.data(),
                                        col.vertices.size() * sizeof(gpu::ColliderVertex),
                                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "collider vertices");
        colliderIndices =
            staticBuffer(*ctx, once, col.indices.data(), col.indices.size() * sizeof(std::uint32_t),
                         VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "collider indices");
        for (std::size_t i = 0; i < slots.size(); ++i) {
            Slot& s = slots[i];
            const std::string n = " [" + std::to_string(i) + "]";
            s.colliderInstances =
                hostBuffer(*ctx, (col.colliders.size() + 1) * sizeof(gpu::ColliderInstance),
                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "collider instances" + n);
            if (gpu) {
                s.cpuPositions = vk::Buffer();
                s.cpuNormals = vk::Buffer();
                continue;
            }
            s.cpuPositions = hostBuffer(*ctx, VkDeviceSize(cloth.vertexCount) * 16,
                                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "cpu positions" + n);
            s.cpuNormals = hostBuffer(*ctx, VkDeviceSize(cloth.originalVertexCount) * 16,
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "cpu normals" + n);
        }
        hasCloth = true;
        writeGeometrySets();
    }

    void setOutputs(VkExtent2D e, std::span<const VkImageView> views) {
        ctx->waitIdle();
        extent = e;
        const VkImageUsageFlags colour =
            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
        depth = Image(*ctx, e, kDepthFormat,
                      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                      "gbuffer depth");
        normal = Image(*ctx, e, kNormalFormat, colour, "gbuffer normal");
        albedo = Image(*ctx, e, kAlbedoFormat, colour, "gbuffer albedo");
        aoRaw = Image(*ctx, half(e), kAoFormat, colour, "ao raw");
        ao = Image(*ctx, half(e), kAoFormat, colour, "ao blurred");
        const VkImageView g[] = {normal.view(), albedo.view(), depth.view()};
        gbufferFb = makeFramebuffer(*ctx, gbufferPass.get(), g, e, "gbuffer fb");
        const VkImageView a = aoRaw.view(), b = ao.view();
        ssaoFb = makeFramebuffer(*ctx, aoPass.get(), {&a, 1}, half(e), "ssao fb");
        blurFb = makeFramebuffer(*ctx, aoPass.get(), {&b, 1}, half(e), "ssao blur fb");
        outputFbs.clear();
        for (std::size_t i = 0; i < views.size(); ++i)
            outputFbs.push_back(makeFramebuffer(*ctx, outputPass.get(), {&views[i], 1}, e,
                                                "output fb " + std::to_string(i)));
        writeScreenSets();
    }

    void beginPass(VkCommandBuffer cmd, VkRenderPass pass, VkFramebuffer fb, VkExtent2D e,
                   std::span<const VkClearValue> clears) {
        VkRenderPassBeginInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        info.renderPass = pass;
        info.framebuffer = fb;
        info.renderArea = {{0, 0}, e};
        info.clearValueCount = static_cast<std::uint32_t>(clears.size());
        info.pClearValues = clears.data();
        vkCmdBeginRenderPass(cmd, &info, VK_SUBPASS_CONTENTS_INLINE);
        setViewport(cmd, e);
    }

    void bind(VkCommandBuffer cmd, VkPipeline pipe, VkPipelineLayout layout, VkDescriptorSet set) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0,
                                nullptr);
    }

    void drawCloth(VkCommandBuffer cmd) {  // each cloth with its index as the instance index
        vkCmdBindIndexBuffer(cmd, indices.get(), 0, VK_INDEX_TYPE_UINT32);
        for (std::uint32_t i = 0; i < cloth.cloths.size(); ++i)
            vkCmdDrawIndexed(cmd, 3 * cloth.cloths[i].triangleCount, 1,
                             3 * cloth.cloths[i].firstTriangle, 0, i);
    }

    std::uint32_t groundInstance() const {
        return static_cast<std::uint32_t>(cloth.colliders.colliders.size());
    }

    // The colliders where they are at the frame's simulated time (colliderPose, as the solvers
    // place them), and the automatic ground under the scene's centre.
    void placeColliders(Slot& s, const gpu::FrameUniforms& u) {
        auto* out = static_cast<gpu::ColliderInstance*>(s.colliderInstances.mapped());
        const std::vector<gpu::Collider>& list = cloth.colliders.colliders;
        for (std::size_t i = 0; i < list.size(); ++i)
            out[i].model = colliderModel(list[i], u.time.x);
        glm::mat4 ground(1.0f);
        ground[3] = glm::vec4(u.ground.z, u.ground.x, u.ground.w, 1.0f);
        out[list.size()].model = ground;
    }

    void drawSolidColliders(VkCommandBuffer cmd) {
        if (cloth.colliders.solids.empty()) return;
        vkCmdBindIndexBuffer(cmd, colliderIndices.get(), 0, VK_INDEX_TYPE_UINT32);
        for (const ColliderDraw& d : cloth.colliders.solids)
            vkCmdDrawIndexed(cmd, d.indexCount, 1, d.firstIndex, d.vertexOffset, d.collider);
    }

    void drawPlanes(VkCommandBuffer cmd, bool automaticGround) {
        for (std::uint32_t plane : cloth.colliders.planes) vkCmdDraw(cmd, 6, 1, 0, plane);
        if (automaticGround && !cloth.colliders.floor) vkCmdDraw(cmd, 6, 1, 0, groundInstance());
    }

    void record(VkCommandBuffer cmd, Slot& s, std::uint32_t outputIndex,
                const gpu::FrameUniforms& u, const std::function<void(VkCommandBuffer)>& overlay) {
        std::memcpy(s.uniforms.mapped(), &u, sizeof u);
        placeColliders(s, u);
        s.timer.reset(cmd);
        if (gpu && gpu->acquire) gpu->acquire(cmd);

        const VkClearValue depthClear{.depthStencil = {1.0f, 0}};
        s.timer.begin(cmd, kShadow);
        const VkExtent2D shadowExtent = shadowMap.extent();
        beginPass(cmd, shadowPass.get(), shadowFb.get(), shadowExtent, {&depthClear, 1});
        if (shading.shadows) {
            bind(cmd, shadowPipe.get(), geometryPl.get(), s.geometry);
            drawCloth(cmd);
            bind(cmd, colliderShadowPipe.get(), geometryPl.get(), s.geometry);
            drawSolidColliders(cmd);
            if (!cloth.colliders.planes.empty()) {
                bind(cmd, planeShadowPipe.get(), geometryPl.get(), s.geometry);
                drawPlanes(cmd, false);  // the automatic ground casts no shadow
            }
        }
        vkCmdEndRenderPass(cmd);
        s.timer.end(cmd, kShadow);

        s.timer.begin(cmd, kGBuffer);
        const VkClearValue gclear[] = {{.color = {{0.0f, 0.0f, 0.0f, 0.0f}}},
                                       {.color = {{0.0f, 0.0f, 0.0f, 0.0f}}},
                                       depthClear};
        beginPass(cmd, gbufferPass.get(), gbufferFb.get(), extent, gclear);
        bind(cmd, groundPipe.get(), geometryPl.get(), s.geometry);
        drawPlanes(cmd, true);
        bind(cmd, colliderPipe.get(), geometryPl.get(), s.geometry);
        drawSolidColliders(cmd);
        bind(cmd, clothPipe.get(), geometryPl.get(), s.geometry);
        drawCloth(cmd);
        const std::uint32_t markerCount =
            static_cast<std::uint32_t>(cloth.markers.size()) + (u.options.y ? 2u : 0u);
        if (markerCount > 0) {
            bind(cmd, markerPipe.get(), geometryPl.get(), s.geometry);
            vkCmdDraw(cmd, 36, markerCount, 0, 0);
        }
        vkCmdEndRenderPass(cmd);
        s.timer.end(cmd, kGBuffer);

        const VkClearValue white{.color = {{1.0f, 1.0f, 1.0f, 1.0f}}};
        s.timer.begin(cmd, kSsao);
        beginPass(cmd, aoPass.get(), ssaoFb.get(), half(extent), {&white, 1});
        if (shading.ssao) {
            bind(cmd, ssaoPipe.get(), ssaoPl.get(), s.ssao);
            vkCmdDraw(cmd, 3, 1, 0, 0);
        }
        vkCmdEndRenderPass(cmd);
        s.timer.end(cmd, kSsao);

        s.timer.begin(cmd, kBlur);
        beginPass(cmd, aoPass.get(), blurFb.get(), half(extent), {&white, 1});
        if (shading.ssao) {
            bind(cmd, blurPipe.get(), blurPl.get(), s.blur);
            vkCmdDraw(cmd, 3, 1, 0, 0);
        }
        vkCmdEndRenderPass(cmd);
        s.timer.end(cmd, kBlur);

        s.timer.begin(cmd, kLighting);
        beginPass(cmd, outputPass.get(), outputFbs.at(outputIndex).get(), extent, {});
        bind(cmd, lightingPipe.get(), lightingPl.get(), s.lighting);
        vkCmdDraw(cmd, 3, 1, 0, 0);
        if (overlay) overlay(cmd);
        vkCmdEndRenderPass(cmd);
        s.timer.end(cmd, kLighting);
    }
};

SceneRenderer::SceneRenderer(std::shared_ptr<vk::Context> ctx, const OutputDesc& output,
                             const ShadingSettings& shading, std::uint32_t framesInFlight)
    : impl_(std::make_unique<Impl>(std::move(ctx), output, shading, framesInFlight)) {}

SceneRenderer::~SceneRenderer() {
    if (impl_) impl_->ctx->waitIdle();
}

void SceneRenderer::setCloth(const ClothDrawData& cloth, std::optional<ExternalVertexBuffers> gpu) {
    impl_->setCloth(cloth, std::move(gpu));
}

void SceneRenderer::setOutputs(VkExtent2D extent, std::span<const VkImageView> views) {
    impl_->setOutputs(extent, views);
}

void SceneRenderer::uploadVertices(std::uint32_t slot, std::span<const glm::vec4> positions,
                                   std::span<const glm::vec4> normals) {
    Slot& s = impl_->slots.at(slot);
    CLOTH_ASSERT(!impl_->gpu && s.cpuPositions);
    CLOTH_ASSERT(positions.size() >= impl_->cloth.vertexCount);
    CLOTH_ASSERT(normals.size() >= impl_->cloth.originalVertexCount);
    std::memcpy(s.cpuPositions.mapped(), positions.data(),
                std::size_t(impl_->cloth.vertexCount) * sizeof(glm::vec4));
    std::memcpy(s.cpuNormals.mapped(), normals.data(),
                std::size_t(impl_->cloth.originalVertexCount) * sizeof(glm::vec4));
}

void SceneRenderer::record(VkCommandBuffer cmd, std::uint32_t slot, std::uint32_t outputIndex,
                           const gpu::FrameUniforms& uniforms,
                           const std::function<void(VkCommandBuffer)>& overlay) {
    CLOTH_ASSERT(impl_->hasCloth && impl_->extent.width > 0);
    impl_->record(cmd, impl_->slots.at(slot), outputIndex, uniforms, overlay);
}

std::vector<PassTime> SceneRenderer::readTimes(std::uint32_t slot) {
    return impl_->slots.at(slot).timer.read();
}

VkRenderPass SceneRenderer::outputPass() const {
    return impl_->outputPass.get();
}
VkExtent2D SceneRenderer::extent() const {
    return impl_->extent;
}
const ClothDrawData& SceneRenderer::cloth() const {
    return impl_->cloth;
}
const ShadingSettings& SceneRenderer::shading() const {
    return impl_->shading;
}
void SceneRenderer::setShading(const ShadingSettings& shading) {
    const std::uint32_t size = impl_->shading.shadowMapSize;
    impl_->shading = shading;
    impl_->shading.shadowMapSize = size;
}
bool SceneRenderer::usesGpuVertices() const {
    return impl_->gpu.has_value();
}
bool SceneRenderer::manualSrgb() const {
    return !isSrgbFormat(impl_->output.format);
}

}  // namespace cloth::render
