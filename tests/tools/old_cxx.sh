# tests/tools/old_cxx.sh — sourced by layer runners.  old_cxx_major prints
# the major version of the plain clang++ when it is older than the newest
# clang++-NN on PATH (Debian's clang 14 beside clang-19), and nothing
# otherwise.  The software device compiles kernels with the newest
# clang++-NN and falls back to the plain clang++ where there is none, so
# the layers run some cases again with it (METALCUDA_CXX=clang++).
clang_major() { "$1" --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1; }

old_cxx_major() {
   local newest plain
   newest=$(compgen -c clang++- | grep -E '^clang\+\+-[0-9]+$' | sort -t- -k2 -n | tail -n 1)
   plain=$(clang_major clang++)
   if [ -n "$newest" ] && [ -n "$plain" ] && [ "$plain" != "$(clang_major "$newest")" ]; then
      echo "$plain"
   fi
}
