include(GoogleTest)

# cloth_add_test(<name> SOURCES ... LIBS ... LABELS ... [SLOW pattern...] [LAUNCHER cmd args...]
#                [RESOURCE_LOCK name] [TEST_PREFIX prefix] [FILTER pattern]): a GoogleTest executable registered with
# ctest, its tests labelled LABELS (the tiers: unit, gpu, window, e2e; docs/testing.md). Tests
# matching a SLOW pattern (gtest filter syntax, e.g. Suite.Name or Suite.*) get the label slow
# too: tools/test.sh --fast leaves them out. FILTER registers only the tests it matches. LAUNCHER runs the tests through a command (e.g.
# xvfb-run for a display); RESOURCE_LOCK keeps tests sharing a resource from running together.
# Sanitizer options are set here so plain `ctest` behaves like tools/test.sh.
# quarantine_size_mb=16 (ASan's default is 256): lavapipe runs a compute shader with barriers as
# coroutines and allocates each invocation's frame with 4 KiB alignment (96 bytes asked, about
# 8 KiB taken), while the quarantine counts the bytes asked; at the default, freed frames held
# up to 9 GB per test process and page faults were half of a GPU test's time
# (SelfCollisionGpuTest.TheSolverGivesTheCpusBits: 63 s and 8.9 GB at 256, 28 s and 1.0 GB at 16).
set(CLOTH_TEST_ENV
    "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:quarantine_size_mb=16"
    "LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tools/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
    "CLOTH_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
    "CLOTH_BUILD_DIR=${CMAKE_BINARY_DIR}"
    # --phantoms auto in tests never reads the user's tuning file (app/phantom_tuning.h).
    "CLOTHSIM_TUNING=${CMAKE_BINARY_DIR}/test-config/no-tuning.json")

function(cloth_add_test name)
    cmake_parse_arguments(ARG "" "RESOURCE_LOCK;TEST_PREFIX;FILTER" "SOURCES;LIBS;LAUNCHER;LABELS;SLOW"
                          ${ARGN})
    if(NOT ARG_LABELS)
        message(FATAL_ERROR "cloth_add_test(${name}): LABELS (its tier) is required")
    endif()
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main cloth_common)
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
    # The environment goes through `env` as the tests' launcher: gtest_discover_tests (CMake 3.25)
    # flattens a list given as PROPERTIES ENVIRONMENT, so only its first entry reached the tests.
    set(launcher /usr/bin/env ${CLOTH_TEST_ENV})
    if(ARG_LAUNCHER)
        set(launcher ${ARG_LAUNCHER} ${launcher})
    endif()
    set_target_properties(${name} PROPERTIES CROSSCOMPILING_EMULATOR "${launcher}")
    set(lock "")
    if(ARG_RESOURCE_LOCK)
        set(lock RESOURCE_LOCK ${ARG_RESOURCE_LOCK})
    endif()
    # NO_PRETTY_VALUES: a parameterised test keeps gtest's name (Suite.Test/name), without the
    # "  # GetParam() = ..." that would put spaces in it: ctest reads its costs file
    # (Testing/Temporary/CTestCostData.txt) split at spaces, so such a test never had a cost and
    # started last in the fresh clone, however long (tools/ctest/costs.txt).
    set(common DISCOVERY_TIMEOUT 60 DISCOVERY_MODE PRE_TEST NO_PRETTY_VALUES
               TEST_PREFIX "${ARG_TEST_PREFIX}")
    if(ARG_FILTER)  # only the tests matching FILTER (gtest filter syntax)
        gtest_discover_tests(${name} ${common} TEST_FILTER "${ARG_FILTER}"
                             PROPERTIES LABELS "${ARG_LABELS}" ${lock})
    elseif(ARG_SLOW)
        list(JOIN ARG_SLOW ":" slow)
        gtest_discover_tests(${name} ${common} TEST_FILTER "-${slow}"
                             PROPERTIES LABELS "${ARG_LABELS}" ${lock})
        # gtest_discover_tests passes PROPERTIES on as a flat list, so "e2e;slow" would set LABELS
        # to e2e and drop slow: a file of our own, included after the discovered tests', labels
        # them from their list.
        gtest_discover_tests(${name} ${common} TEST_FILTER "${slow}" TEST_LIST ${name}_slow_tests
                             PROPERTIES ${lock})
        set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${name}_slow_labels.cmake)
        file(WRITE ${labels_file}
             "if(${name}_slow_tests)\n"
             "  set_tests_properties(\${${name}_slow_tests} PROPERTIES LABELS \"${ARG_LABELS};slow\")\n"
             "endif()\n")
        set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
    else()
        gtest_discover_tests(${name} ${common} PROPERTIES LABELS "${ARG_LABELS}" ${lock})
    endif()
endfunction()
