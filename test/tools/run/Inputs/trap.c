/* Calls the kernel of addr.pto with a tile address past the end of UB: outside
 * the launcher, the runtime prints the trap and aborts. */
#include "addr.h"

#include <stdio.h>

int main(void)
{
    float p[256] = {0};
    at(p, 0, 1.0f);
    printf("in range: %g\n", p[0]);
    fflush(stdout);
    at(p, 300000, 1.0f);
    printf("not reached\n");
    return 0;
}
