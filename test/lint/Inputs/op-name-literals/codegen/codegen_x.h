/* Headers are scanned as well as .c files. */
#define TADD_NAME "pto.tadd"
