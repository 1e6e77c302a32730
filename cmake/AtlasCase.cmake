# atlas_add_case(SOURCE) — one case of the corpus: its program, built with
# what the case includes, and one CTest test per variant, run by atlas-run.
#
# Everything a case needs is read from the case itself: the libraries from
# its includes, its markers from its header comment:
#   atlas:timeout=N                 seconds one run may take (default ATLAS_CASE_TIMEOUT)
#   atlas:runs-alone                never beside another case (it fills GPU memory, say)
#   atlas:nondeterministic          differing repeats are not flaky; the rules list every outcome
#   atlas:cuda-architectures=LIST   the GPU targets its kernels are built for
# Editing a case re-runs the configure step on the next build, so a changed
# marker or include takes effect without a manual reconfigure.
#
# Uses ATLAS_STATE, ATLAS_PREBUILT, ATLAS_CASE_TIMEOUT, ATLAS_CUDNN_LIBRARY /
# _INCLUDE and ATLAS_NCCL_LIBRARY / _INCLUDE from the caller; appends "family/case/variant" to the
# global property ATLAS_REGISTERED and the case name to ATLAS_CASE_NAMES.

# Header a case includes -> what it links. A library the toolkit may lack
# (cuDNN, NCCL) is a variable that may be NOTFOUND: the case is then
# registered anyway and skips with the reason.
set(ATLAS_CASE_LIBRARIES
  "atlas_cublas\\.h" CUDA::cublas
  "<cublasLt\\.h>" CUDA::cublasLt
  "<cusolverDn\\.h>" CUDA::cusolver
  "<cufft\\.h>" CUDA::cufft
  "<curand\\.h>" CUDA::curand
  "<cusparse\\.h>" CUDA::cusparse
  "<cuda\\.h>" CUDA::cuda_driver
  "<cudnn\\.h>" ATLAS_CUDNN_LIBRARY
  "<nccl\\.h>" ATLAS_NCCL_LIBRARY
  "<pthread\\.h>" Threads::Threads)

function(atlas_add_case source)
  get_filename_component(name ${source} NAME_WE)
  get_filename_component(family_dir ${source} DIRECTORY)
  get_filename_component(family ${family_dir} NAME)
  file(RELATIVE_PATH relative ${CMAKE_SOURCE_DIR} ${source})
  get_property(names GLOBAL PROPERTY ATLAS_CASE_NAMES)
  if(name IN_LIST names)
    message(FATAL_ERROR "${relative}: another family already has a case named ${name}; rules name cases alone, so names must be unique")
  endif()
  set_property(GLOBAL APPEND PROPERTY ATLAS_CASE_NAMES ${name})
  # Item 4 of issue 12: a marker or include edited in the case takes effect
  # on the next build.
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
  file(READ ${source} text)

  set(links "")
  set(includes "")
  set(missing "")
  list(LENGTH ATLAS_CASE_LIBRARIES count)
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET ATLAS_CASE_LIBRARIES ${i} pattern)
    list(GET ATLAS_CASE_LIBRARIES ${j} library)
    if(NOT text MATCHES "${pattern}")
      continue()
    endif()
    if(library MATCHES "^ATLAS_")     # a library found with find_library
      if(${library})
        list(APPEND links ${${library}})
        string(REGEX REPLACE "_LIBRARY$" "_INCLUDE" include ${library})   # its header, from the same place
        if(${include})
          list(APPEND includes ${${include}})
        endif()
      else()
        string(REGEX REPLACE "^ATLAS_([A-Z]+)_LIBRARY$" "\\1" lib ${library})
        string(TOLOWER ${lib} lib)
        list(APPEND missing lib${lib})
      endif()
    else()
      list(APPEND links ${library})
    endif()
  endforeach()

  set(skip "")
  if(missing)
    list(JOIN missing ", " missing_text)
    set(skip --skip-reason "needs ${missing_text}, which the build did not find (configure with it installed)")
    set(program /nonexistent/${name})
  elseif(ATLAS_PREBUILT)
    set(program ${ATLAS_PREBUILT}/cases/${family}/${name})
  else()
    set(program $<TARGET_FILE:case_${name}>)
    add_executable(case_${name} ${source})
    set_target_properties(case_${name} PROPERTIES OUTPUT_NAME ${name}
                          RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/cases/${family})
    target_link_libraries(case_${name} PRIVATE atlas ${links})
    target_include_directories(case_${name} PRIVATE ${includes})
    # Cases are C11 and may use POSIX (setenv, fork); they may need to find
    # the toolkit's own files (its stub driver) at run time.
    target_compile_definitions(case_${name} PRIVATE $<$<COMPILE_LANGUAGE:C>:_POSIX_C_SOURCE=200809L>
                               ATLAS_CUDA_LIBRARY_DIR="${CUDAToolkit_LIBRARY_DIR}")
    # A case about what code a binary carries chooses its own GPU targets.
    if(text MATCHES "atlas:cuda-architectures=([0-9a-z;-]+)")
      set_target_properties(case_${name} PROPERTIES CUDA_ARCHITECTURES "${CMAKE_MATCH_1}")
    endif()
  endif()

  set(timeout ${ATLAS_CASE_TIMEOUT})
  if(text MATCHES "atlas:timeout=([0-9]+)")
    set(timeout ${CMAKE_MATCH_1})
  endif()
  # Cases that fill GPU memory (or otherwise need the GPU to themselves)
  # never run beside another case: they would make it fail for the wrong reason.
  set(alone FALSE)
  if(text MATCHES "atlas:runs-alone")
    set(alone TRUE)
  endif()
  set(nondeterministic "")
  if(text MATCHES "atlas:nondeterministic")
    set(nondeterministic --nondeterministic)
  endif()
  # The runner owns every time limit: it gets a total budget for all repeats
  # (ATLAS_REPEAT) at ATLAS_TIMEOUT_MULTIPLIER times the limit, and starts no
  # repeat that would not fit, so a hang is always its timeout. CTest's
  # TIMEOUT is only a backstop for the runner itself, 30 s beyond the budget.
  math(EXPR budget "${timeout} * 10 + 30")
  math(EXPR backstop "${budget} + 30")

  foreach(variant fixed broken)
    add_test(NAME ${family}/${name}/${variant}
             COMMAND atlas-run case --case ${name} --family ${family} --variant ${variant}
                     --source ${relative} --rules expected
                     --fingerprint ${ATLAS_STATE}/fingerprint.txt --parts ${ATLAS_STATE}/parts
                     --timeout ${timeout} --budget ${budget} ${nondeterministic} ${skip} -- ${program}
             # From the source root, so results cite rules as expected/x.rules:N
             # wherever the checkout is.
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(${family}/${name}/${variant} PROPERTIES
      LABELS "case;${family}"
      SKIP_RETURN_CODE 77
      TIMEOUT ${backstop}
      RUN_SERIAL ${alone}
      FIXTURES_REQUIRED "atlas_fingerprint;atlas_results")
    set_property(GLOBAL APPEND PROPERTY ATLAS_REGISTERED ${family}/${name}/${variant})
  endforeach()
endfunction()
