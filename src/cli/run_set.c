/* run_set.c - `--set FIELD=VALUE` preset overrides: checked against the preset schema, written as a derived
 * preset file (run_set.h). */
#include "run_set.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../device/device.h"

/* Start with no overrides. */
void cli_set_init(cli_set_opts *o)
{
    memset(o, 0, sizeof *o);
}

/* Print the usage line of --set. */
void cli_set_usage(FILE *f)
{
    fprintf(f, "  --set FIELD=VALUE       override a field of the device preset (repeatable; devices/README.md lists\n"
               "                          the fields), e.g. --set l2_size=25MiB --set sm_count=66\n");
}

/* Take argv[*i] if it is --set FIELD=VALUE. */
int cli_set_option(int argc, char **argv, int *i, cli_set_opts *o, const char *prog)
{
    const char *a = argv[*i], *v;
    if (!strncmp(a, "--set=", 6)) v = a + 6;
    else if (!strcmp(a, "--set")) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "%s: --set needs FIELD=VALUE\n", prog);
            return -1;
        }
        v = argv[++*i];
    } else
        return 0;
    if (!strchr(v, '=') || v[0] == '=') {
        fprintf(stderr, "%s: --set %s: expected FIELD=VALUE\n", prog, v);
        return -1;
    }
    if (o->n >= CLI_SET_MAX) {
        fprintf(stderr, "%s: more than %d --set options\n", prog, CLI_SET_MAX);
        return -1;
    }
    o->v[o->n++] = v;
    return 1;
}

/* Split "FIELD=VALUE" (white space around either trimmed) into key and val buffers; 0, or -1 when malformed. */
static int split_set(const char *s, char *key, size_t kcap, char *val, size_t vcap)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s) return -1;
    while (*s == ' ' || *s == '\t') s++;
    size_t kn = (size_t)(eq - s);
    while (kn && (s[kn - 1] == ' ' || s[kn - 1] == '\t')) kn--;
    const char *v = eq + 1;
    while (*v == ' ' || *v == '\t') v++;
    size_t vn = strlen(v);
    while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t')) vn--;
    if (!kn || kn >= kcap || vn >= vcap) return -1;
    memcpy(key, s, kn);
    key[kn] = 0;
    memcpy(val, v, vn);
    val[vn] = 0;
    return 0;
}

/* Check the overrides and write the derived preset (see run_set.h). */
int cli_set_make(const char *gpu, const char *const *sets, int n, const char *dir, char *out, size_t cap, char *err,
                 size_t errlen)
{
    char key[128], val[512], why[1024];
    for (int k = 0; k < n; k++) {
        if (split_set(sets[k], key, sizeof key, val, sizeof val)) {
            snprintf(err, errlen, "--set %s: expected FIELD=VALUE", sets[k]);
            return -1;
        }
        if (ws_device_check_value(key, val, why, sizeof why)) {
            snprintf(err, errlen, "--set %s: %s", sets[k], why);
            return -1;
        }
        for (int j = 0; j < k; j++) {
            char k2[128], v2[512];
            if (!split_set(sets[j], k2, sizeof k2, v2, sizeof v2) && !strcmp(k2, key)) {
                snprintf(err, errlen, "--set %s: field '%s' is set twice", sets[k], key);
                return -1;
            }
        }
    }
    if (!ws_device_get(gpu, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    char base[PATH_MAX], real[PATH_MAX], path[PATH_MAX + 80], tmpdir[PATH_MAX] = "";
    ws_device_resolve(gpu, base, sizeof base);
    if (!realpath(base, real)) snprintf(real, sizeof real, "%s", base);
    if (!dir) {
        const char *t = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/warpsim-set-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(tmpdir)) {
            snprintf(err, errlen, "cannot make a temporary folder %s: %s", tmpdir, strerror(errno));
            return -1;
        }
        dir = tmpdir;
    }
    /* the derived preset keeps the base preset's id (its file name) */
    const char *id = strrchr(real, '/');
    id = id ? id + 1 : real;
    size_t pl = (size_t)snprintf(path, sizeof path, "%s/%s", dir, id);
    if (pl >= sizeof path - 8) {
        snprintf(err, errlen, "the temporary preset's path is too long (%s)", dir);
        return -1;
    }
    if (pl < 7 || strcmp(path + pl - 7, ".preset")) memcpy(path + pl, ".preset", 8);
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    } else {
        fprintf(f, "# %s with overrides (warpsim --set)\nbase = %s\n", id, real);
        for (int k = 0; k < n; k++) {
            split_set(sets[k], key, sizeof key, val, sizeof val);
            fprintf(f, "%s = %s\n", key, val);
        }
        if (fclose(f)) {
            snprintf(err, errlen, "cannot write %s", path);
            rc = -1;
        }
    }
    ws_device d;
    if (!rc && ws_device_load_file(path, &d, why, sizeof why)) {
        /* the loader names the line: line 3 is the first override */
        const char *m = strstr(why, ": field '");
        int line = 0;
        const char *c = strstr(why, ".preset:");
        if (c) line = atoi(c + 8);
        if (line >= 3 && line - 3 < n)
            snprintf(err, errlen, "--set %s: %s", sets[line - 3], m ? m + 2 : why);
        else
            snprintf(err, errlen, "--set %s%s: the preset becomes inconsistent: %s", sets[0], n > 1 ? " ..." : "",
                     m ? m + 2 : why);
        rc = -1;
    }
    if (rc || !out || tmpdir[0]) unlink(path);
    else snprintf(out, cap, "%s", path);
    if (tmpdir[0]) rmdir(tmpdir);
    return rc;
}

/* For `warpsim run`: the derived preset in a new temporary folder. */
int cli_set_prepare(cli_set_opts *o, const char *gpu, const char *prog)
{
    if (!o->n) return 0;
    const char *t = getenv("TMPDIR");
    snprintf(o->dir, sizeof o->dir, "%s/warpsim-set-XXXXXX", t && *t ? t : "/tmp");
    char err[2048];
    if (!mkdtemp(o->dir)) {
        fprintf(stderr, "%s: cannot make a temporary folder %s: %s\n", prog, o->dir, strerror(errno));
        o->dir[0] = 0;
        return -1;
    }
    if (cli_set_make(gpu, o->v, o->n, o->dir, o->preset, sizeof o->preset, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        cli_set_cleanup(o);
        return -1;
    }
    return 0;
}

/* Remove the temporary folder of cli_set_prepare. */
void cli_set_cleanup(cli_set_opts *o)
{
    if (o->preset[0]) unlink(o->preset);
    if (o->dir[0]) rmdir(o->dir);
    o->preset[0] = o->dir[0] = 0;
}
