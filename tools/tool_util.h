/* tool_util.h: what ptoc-opt and ptoc share: a table-driven command-line parser,
 * reading an input file or stdin, and atomic output files.
 *
 * Conventions of both tools: every flag may be written with one or two dashes;
 * a flag with a value takes it as `--flag=value` or `--flag value`; `--` ends the
 * flags; exit status 0 on success, 1 on an error diagnostic, 2 on a bad command
 * line (after a one-line message on stderr).
 */
#ifndef PTOC_TOOLS_TOOL_UTIL_H
#define PTOC_TOOLS_TOOL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { PTOC_TOOL_EXIT_OK = 0, PTOC_TOOL_EXIT_ERROR = 1, PTOC_TOOL_EXIT_USAGE = 2 };

typedef enum ptoc_tool_arg {
    PTOC_TOOL_NO_VALUE,        /* --flag */
    PTOC_TOOL_VALUE,           /* --flag=V or --flag V */
    PTOC_TOOL_OPTIONAL_VALUE,  /* --flag or --flag=V */
} ptoc_tool_arg;

/* One row per flag. `apply` gets the tool's option struct and the value (NULL
 * when none was given); it returns false after printing why a value is bad. */
typedef struct ptoc_tool_flag {
    const char *name;          /* without dashes: "split-input-file", "o" */
    ptoc_tool_arg arg;
    const char *metavar;       /* "FILE" in the help text */
    bool (*apply)(void *opts, const char *value);
    const char *help;          /* NULL: an alias left out of --help */
} ptoc_tool_flag;

typedef struct ptoc_tool_cli {
    const char *prog;          /* "ptoc-opt" */
    const char *usage;         /* "[options] FILE|-" */
    const char *overview;      /* one paragraph for --help */
    const ptoc_tool_flag *flags;
    size_t nflags;
    /* A non-flag argument; false after printing why it is not accepted. */
    bool (*positional)(void *opts, const char *arg);
    /* Optional: a flag no row names (e.g. a pass name); false if not accepted. */
    bool (*fallback)(void *opts, const char *name);
} ptoc_tool_cli;

/* Parses argv[1..argc); on a bad command line prints `prog: error: ...` and
 * returns false. */
bool ptoc_tool_parse_args(const ptoc_tool_cli *cli, int argc, char **argv, void *opts);
void ptoc_tool_print_help(const ptoc_tool_cli *cli, FILE *out);
/* Prints `prog: error: message` to stderr. */
void ptoc_tool_error(const char *prog, const char *fmt, ...);

/* Reads a whole file ("-" is stdin) into a malloc'ed buffer, with a NUL after the
 * `*len` bytes. Returns NULL after printing an error. */
char *ptoc_tool_read_input(const char *prog, const char *path, size_t *len);
/* Writes `len` bytes to `path` ("-" is stdout) through a temporary file in the
 * same directory and a rename, so a failure never leaves a partial file. */
bool ptoc_tool_write_output(const char *prog, const char *path, const char *data, size_t len);

/* The architectures --pto-arch and -target accept (ptoc_pto_arch_from_name:
 * a2, a3, a2a3, a5 or cpu, in any case). */
bool ptoc_tool_arch_valid(const char *arch);
#define PTOC_TOOL_ARCH_LIST "a2, a3, a2a3, a5 or cpu"

#endif
