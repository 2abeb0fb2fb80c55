/*
 * tools_tls.c — TOOLS_TLS {42D85A81-23F6-CB47-8298-F6E78A3AECDC}: three
 * entries on NVIDIA's driver 580 (size word 0x18).  CUDA 12.9's and 13.0's
 * runtimes ask for the table at initialisation and never call into it
 * (observed on an H200 over every tests/cuda program); what the two
 * functions do is not known.
 */
#include "darkapi.h"

DARK_UNKNOWN_SLOT(tools_tls, 1)
DARK_UNKNOWN_SLOT(tools_tls, 2)

const dark_fn dark_tools_tls[] = {
   DARK_SIZE(3),
   (dark_fn)dark_tools_tls_slot1,
   (dark_fn)dark_tools_tls_slot2,
};
