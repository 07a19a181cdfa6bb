# Writes OUTPUT, the header of dcon's build record (run.json's "build", build-info.cc), at
# every build: run by the target dcon-build-info of CMakeLists.txt as
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -DBUILD_TYPE=... -DNS3_BUILD=... -P build-info.cmake
# The commit is git's HEAD of SOURCE_DIR, with "-dirty" when the files the programs are built
# from or read (model/, helper/, experiments/, examples/, CMakeLists.txt, data/cdf/) have
# uncommitted changes; "unknown" outside a git checkout. OUTPUT is rewritten only when its text
# changes, so that only build-info.cc is recompiled, and only after a commit or an edit.
set(commit "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse HEAD
                  OUTPUT_VARIABLE head RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
    set(commit ${head})
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain
                            --untracked-files=no -- model helper experiments examples
                            CMakeLists.txt data/cdf
                    OUTPUT_VARIABLE changes RESULT_VARIABLE rc ERROR_QUIET)
    if(NOT rc EQUAL 0)
      set(commit "${commit}-unknown-state")
    elseif(NOT changes STREQUAL "")
      set(commit "${commit}-dirty")
    endif()
  endif()
endif()
set(text "// generated at build time by experiments/build-info.cmake\n"
         "#define DCON_BUILD_TYPE \"${BUILD_TYPE}\"\n#define DCON_NS3_BUILD \"${NS3_BUILD}\"\n"
         "#define DCON_GIT_COMMIT \"${commit}\"\n")
string(CONCAT text ${text})
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
