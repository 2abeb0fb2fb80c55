/*
 * crt/mc_shared_storage.h — raw storage for a __shared__ variable whose type
 * has a constructor or destructor, as nvcc gives it.
 *
 * nvcc accepts `__shared__ T x;` (and arrays of T) when T has a non-empty
 * constructor, destructor or default member initializers, and runs none of
 * them: shared memory is uninitialized storage the program fills itself.
 * clang refuses it ("initialization is not supported for __shared__
 * variables"), so metalcuda's driver rewrites such a declaration, in a
 * temporary copy of the source (src/toolchain/source_fix.c), into
 *
 *     __shared__ __mc_shared_storage<T> __mc_raw_x; constexpr auto &x = __mc_raw_x.v;
 *
 * The storage is a union: clang allows a __shared__ variable whose
 * constructor and destructor have empty bodies, and a union's do not
 * construct or destroy its members — so nothing runs, and the storage has
 * T's size and alignment.  The reference is constexpr (it names a
 * subobject of a variable of static storage duration), so it is not
 * odr-used: a lambda that names it, even one capturing by copy, refers to
 * the shared variable itself, as it would to nvcc's, and no copy is made.
 * The loads and stores through it are ld/st.shared in the PTX.
 */
#ifndef MC_SHARED_STORAGE_H
#define MC_SHARED_STORAGE_H

template <class __MC_T>
union __mc_shared_storage {
   __MC_T v;
   __attribute__((host, device)) __mc_shared_storage() {}
   __attribute__((host, device)) ~__mc_shared_storage() {}
};

#endif
