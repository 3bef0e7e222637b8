# Shaders are compiled by glslc at build time (header dependencies tracked through depfiles) and
# embedded in a library: cloth_shader_library(<target> STATIC|OBJECT <folder>) takes every
# <folder>/*.comp|vert|frag. The production library is cloth_shaders (shaders/); the tests' kernels
# (tests/vk/kernels/) are an OBJECT library that adds its table when a test binary links it.
# Look one up with cloth::shaders::spirv("name.comp") from src/vk/spirv.h. Nothing compiled is
# committed. GLSL includes resolve against src/, as C++ does: "kernels/types.h".
set(spirv_dir ${CMAKE_BINARY_DIR}/spirv)
file(MAKE_DIRECTORY ${spirv_dir})
# Compute shaders get every float operation marked NoContraction (cmake/spirv_exact.py): no
# FMA fusion or re-association by the driver, as the CPU side builds with -ffp-contract=off, so
# the GPU solver reproduces the CPU reference bit for bit where the maths is the same.
option(CLOTH_EXACT_COMPUTE_MATH "Mark all float arithmetic of compute shaders NoContraction" ON)
find_package(Python3 COMPONENTS Interpreter REQUIRED)
find_program(SPIRV_OPT spirv-opt REQUIRED)

# cloth_compile_shader(<source> <embedded name> [glslc flags...]): one SPIR-V module.
function(cloth_compile_shader src name)
    string(MAKE_C_IDENTIFIER ${name} ident)
    set(out ${spirv_dir}/${name}.inc)
    set(exact OFF)
    if(CLOTH_EXACT_COMPUTE_MATH AND name MATCHES "\\.comp$")
        set(exact ON)
    endif()
    # spirv-opt (glslc -O) folds and re-associates float arithmetic that is not NoContraction:
    # exact shaders are compiled unoptimised, marked, then optimised (spirv-opt respects it).
    if(exact)
        set(opt -O0)
    else()
        set(opt -O)
    endif()
    set(glslc_args --target-env=vulkan1.2 ${opt} -I ${CMAKE_SOURCE_DIR}/src ${ARGN}
                   -MD -MF ${out}.d -MT ${out})
    if(exact)
        add_custom_command(
            OUTPUT ${out}
            COMMAND ${GLSLC} ${glslc_args} -o ${spirv_dir}/${name}.spv ${src}
            COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/cmake/spirv_exact.py
                    ${spirv_dir}/${name}.spv ${spirv_dir}/${name}.exact.spv
            COMMAND ${SPIRV_OPT} -O --target-env=vulkan1.2 ${spirv_dir}/${name}.exact.spv
                    -o ${spirv_dir}/${name}.opt.spv
            COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/cmake/spirv_exact.py --c-array
                    ${spirv_dir}/${name}.opt.spv ${out}
            DEPENDS ${src} ${CMAKE_SOURCE_DIR}/cmake/spirv_exact.py
            DEPFILE ${out}.d
            COMMENT "glslc ${name} (exact float operations)"
            VERBATIM)
    else()
        add_custom_command(
            OUTPUT ${out}
            COMMAND ${GLSLC} ${glslc_args} -mfmt=c -o ${out} ${src}
            DEPENDS ${src}
            DEPFILE ${out}.d
            COMMENT "glslc ${name}"
            VERBATIM)
    endif()
    set(spirv_outputs ${spirv_outputs} ${out} PARENT_SCOPE)
    set(spirv_decls "${spirv_decls}const std::uint32_t k_${ident}[] =\n#include \"${name}.inc\"\n;\n"
        PARENT_SCOPE)
    set(spirv_entries "${spirv_entries}    {\"${name}\", {k_${ident}, std::size(k_${ident})}},\n"
        PARENT_SCOPE)
endfunction()

# cloth_shader_library(<target> STATIC|OBJECT <folder>). A solver kernel that says `cloth: wide
# variant` is also built as <name>_wide.comp with CLOTH_WIDE_ACCESS: 64-bit memory accesses, for
# CPU devices (shaders/solver/buffers.glsl).
function(cloth_shader_library target kind folder)
    file(GLOB sources CONFIGURE_DEPENDS ${folder}/*.comp ${folder}/*.vert ${folder}/*.frag)
    set(spirv_outputs "")
    set(spirv_decls "")
    set(spirv_entries "")
    foreach(src ${sources})
        get_filename_component(name ${src} NAME)
        cloth_compile_shader(${src} ${name})
        file(READ ${src} text)
        if(text MATCHES "cloth: wide variant")
            string(REGEX REPLACE "\\.comp$" "_wide.comp" wide ${name})
            cloth_compile_shader(${src} ${wide} -DCLOTH_WIDE_ACCESS=1)
        endif()
    endforeach()
    if(kind STREQUAL "STATIC")  # the production table: spirv() starts from it
        set(spirv_tail "std::span<const cloth::shaders::Embedded> cloth::shaders::detail::builtIn() {\n    return kTable;\n}")
    else()  # an OBJECT library's table: added before main, when a program links it
        set(spirv_tail "static const bool kAdded = cloth::shaders::detail::add(kTable);")
    endif()
    set(spirv_cpp ${spirv_dir}/${target}_embedded.cpp)
    configure_file(${CMAKE_SOURCE_DIR}/cmake/embedded_spirv.cpp.in ${spirv_cpp} @ONLY)
    add_library(${target} ${kind} ${spirv_cpp} ${spirv_outputs})
    target_include_directories(${target} PRIVATE ${spirv_dir})
    target_link_libraries(${target} PUBLIC cloth_common)
endfunction()

cloth_shader_library(cloth_shaders STATIC ${CMAKE_SOURCE_DIR}/shaders)
