/* test_codegen_fallback.c: codegen's own placement, which only library users
 * who skip pto-plan-memory reach (ptoc always plans first). Address-less tiles
 * are placed one after another per function and space, 32-byte aligned; a
 * space that overflows is a located error; an on-chip memref with dynamic
 * sizes is refused. */
#include "check.h"
#include "lower_text.h"

#include "ptoc/codegen.h"
#include "ptoc/ptoc.h"

#include <stdlib.h>
#include <string.h>

static const char sequential[] =
    "func.func @k(%p: !pto.ptr<f32>) {\n"
    "  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
    "  %s = pto.alloc_tile : !pto.tile_buf<vec, 1x16xf32>\n"
    "  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
    "  pto.tcolexpandadd ins(%a, %s : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 1x16xf32>)"
    " outs(%b : !pto.tile_buf<vec, 16x16xf32>)\n"
    "  return\n"
    "}\n";

static const char overflow[] =
    "func.func @k() {\n"
    "  %a = pto.alloc_tile : !pto.tile_buf<vec, 256x256xf32>\n"
    "  %b = pto.alloc_tile : !pto.tile_buf<vec, 256x256xf32>\n"
    "  return\n"
    "}\n";

static const char dynamic_memref[] =
    "func.func @k(%n: index) {\n"
    "  %m = memref.alloc(%n) : memref<?x16xf32, #pto.address_space<vec>>\n"
    "  return\n"
    "}\n";

int main(void)
{
    char *ir = lower_text(NULL, "cpu", sequential);
    CHECK(ir != NULL);
    /* 1024 bytes, then 64 (one row of 16 floats), then 1024 */
    const char *a = ir ? strstr(ir, "%tile = getelementptr i8, ptr %1, i64 0") : NULL;
    const char *s = a ? strstr(a, "%tile1 = getelementptr i8, ptr %1, i64 1024") : NULL;
    CHECK(a != NULL && s != NULL && strstr(s, "%tile2 = getelementptr i8, ptr %1, i64 1088") != NULL);
    free(ir);

    CHECK(lower_text(NULL, "cpu", overflow) == NULL);
    CHECK(strcmp(lower_text_error, "3:8: vec overflow: sequential placement needs 524288 bytes, 262144 available") == 0);

    CHECK(lower_text(NULL, "cpu", dynamic_memref) == NULL);
    CHECK(strstr(lower_text_error, "an on-chip memref with dynamic sizes is not supported by the cpu target") != NULL);
    return CHECK_DONE();
}
