/* Calls the vec_add kernel of examples/add.pto from C through the header ptoc
 * generates (-emit=header), linked with its object and libptoc_rt. */
#include "add.h"

#include <stdio.h>

int main(void)
{
    float a[256], b[256], c[256];
    for (int i = 0; i < 256; i++) {
        a[i] = (float)i;
        b[i] = 0.25f;
        c[i] = -1.0f;
    }
    vec_add(a, b, c);
    vec_add(c, b, c);          /* in place, and the runtime's memory is reused */
    printf("%g %g %g\n", c[0], c[1], c[255]);
    return 0;
}
