/* The compiled twin of agents/sampling.py's SlotSampler.sample: one uniform world of hidden
 * cards per call, drawn from a numpy bit generator's raw outputs in exactly the order the Python
 * reference reads them (its module docstring), so a seeded generator gives the same worlds
 * either way (tests/test_compiled_sampler.py).
 *
 * plan(n_slots, classes, groups, free, nodes) tabulates a sampler once: the merged slots
 * (classes: (member slots, member capacities)), the groups ((cards, class indices)), the free
 * cards and every node of the count-vector tree ((capacities left, ((k, child, threshold), ...))),
 * node 0 the root. sample(plan, capsule) walks it with the bit generator behind capsule (numpy's
 * "BitGenerator" capsule: its bitgen_t, numpy/random/bitgen.h) and returns the bitmask of each
 * slot. Game-agnostic: cards are 0..127.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* numpy's bitgen_t (numpy/random/bitgen.h), declared here so the build needs no numpy headers */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

#define MAXS 16  /* slots (and merged slots) */
#define NCARDS 128
#define THRESHOLD_SHIFT 11 /* 64 - 53 */
#define CAPSULE "mazzo.csample.plan"

typedef struct {
    int n_slots, n_classes, n_groups, n_free, n_nodes;
    int class_n[MAXS], class_members[MAXS][MAXS], class_caps[MAXS][MAXS];
    int group_start[NCARDS + 1], group_cards[NCARDS], group_nslots[NCARDS];
    int group_slots[NCARDS][MAXS];
    int free_cards[NCARDS];
    int *node_caps;   /* n_nodes * n_classes */
    int *node_first;  /* n_nodes + 1: option range */
    int *opt_k;       /* options * MAXS */
    int *opt_child;
    uint64_t *opt_thr;
} Plan;

static void plan_free(Plan *p) {
    if (!p) return;
    free(p->node_caps), free(p->node_first), free(p->opt_k), free(p->opt_child), free(p->opt_thr);
    free(p);
}

static void capsule_free(PyObject *cap) { plan_free(PyCapsule_GetPointer(cap, CAPSULE)); }

static int fail(const char *what) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "csample plan: bad %s", what);
    return -1;
}

/* A tuple of ints in lo..hi into out (at most max items); its length, or -1. */
static int read_ints(PyObject *o, int *out, int max, long lo, long hi, const char *what) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) > max) return fail(what);
    int n = (int)PyTuple_GET_SIZE(o);
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if ((v == -1 && PyErr_Occurred()) || v < lo || v > hi) return fail(what);
        out[i] = (int)v;
    }
    return n;
}

static PyObject *py_plan(PyObject *self, PyObject *args) {
    int n_slots;
    PyObject *classes, *groups, *freec, *nodes;
    if (!PyArg_ParseTuple(args, "iO!O!O!O!", &n_slots, &PyTuple_Type, &classes, &PyTuple_Type,
                          &groups, &PyTuple_Type, &freec, &PyTuple_Type, &nodes))
        return NULL;
    Plan *p = calloc(1, sizeof(Plan));
    if (!p) return PyErr_NoMemory();
    if (n_slots < 1 || n_slots > MAXS || PyTuple_GET_SIZE(classes) > MAXS) {
        fail("slot count");
        goto error;
    }
    p->n_slots = n_slots;
    p->n_classes = (int)PyTuple_GET_SIZE(classes);
    for (int c = 0; c < p->n_classes; c++) {
        PyObject *t = PyTuple_GET_ITEM(classes, c);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2) { fail("class"); goto error; }
        int n = read_ints(PyTuple_GET_ITEM(t, 0), p->class_members[c], MAXS, 0, n_slots - 1,
                          "class members");
        if (n < 1 || read_ints(PyTuple_GET_ITEM(t, 1), p->class_caps[c], MAXS, 0, NCARDS,
                               "class capacities") != n) {
            fail("class");
            goto error;
        }
        p->class_n[c] = n;
    }
    p->n_groups = (int)PyTuple_GET_SIZE(groups);
    int at = 0;
    for (int g = 0; g < p->n_groups; g++) {
        PyObject *t = PyTuple_GET_ITEM(groups, g);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 || g >= NCARDS) { fail("group"); goto error; }
        p->group_start[g] = at;
        int n = read_ints(PyTuple_GET_ITEM(t, 0), p->group_cards + at, NCARDS - at, 0,
                          NCARDS - 1, "group cards");
        if (n < 0) goto error;
        at += n;
        int ns = read_ints(PyTuple_GET_ITEM(t, 1), p->group_slots[g], MAXS, 0,
                           p->n_classes - 1, "group slots");
        if (ns < 1) { fail("group slots"); goto error; }
        p->group_nslots[g] = ns;
    }
    p->group_start[p->n_groups] = at;
    p->n_free = read_ints(freec, p->free_cards, NCARDS, 0, NCARDS - 1, "free cards");
    if (p->n_free < 0) goto error;
    p->n_nodes = (int)PyTuple_GET_SIZE(nodes);
    Py_ssize_t n_opts = 0;
    for (int i = 0; i < p->n_nodes; i++) {
        PyObject *t = PyTuple_GET_ITEM(nodes, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(t, 1))) {
            fail("node");
            goto error;
        }
        n_opts += PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 1));
    }
    if (p->n_nodes < 1) { fail("node count"); goto error; }
    p->node_caps = calloc((size_t)p->n_nodes * (size_t)(p->n_classes ? p->n_classes : 1), sizeof(int));
    p->node_first = calloc((size_t)p->n_nodes + 1, sizeof(int));
    p->opt_k = calloc((size_t)(n_opts ? n_opts : 1) * MAXS, sizeof(int));
    p->opt_child = calloc((size_t)(n_opts ? n_opts : 1), sizeof(int));
    p->opt_thr = calloc((size_t)(n_opts ? n_opts : 1), sizeof(uint64_t));
    if (!p->node_caps || !p->node_first || !p->opt_k || !p->opt_child || !p->opt_thr) {
        PyErr_NoMemory();
        goto error;
    }
    int o = 0;
    for (int i = 0; i < p->n_nodes; i++) {
        PyObject *t = PyTuple_GET_ITEM(nodes, i);
        if (read_ints(PyTuple_GET_ITEM(t, 0), p->node_caps + (size_t)i * p->n_classes,
                      p->n_classes, 0, NCARDS, "node capacities") != p->n_classes) {
            fail("node capacities");
            goto error;
        }
        p->node_first[i] = o;
        PyObject *opts = PyTuple_GET_ITEM(t, 1);
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(opts); j++, o++) {
            PyObject *e = PyTuple_GET_ITEM(opts, j);
            if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 3) { fail("option"); goto error; }
            if (read_ints(PyTuple_GET_ITEM(e, 0), p->opt_k + (size_t)o * MAXS, MAXS, 0, NCARDS,
                          "option counts") < 0)
                goto error;
            long child = PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
            if ((child == -1 && PyErr_Occurred()) || child <= i || child >= p->n_nodes) {
                fail("option child");
                goto error;
            }
            p->opt_child[o] = (int)child;
            unsigned long long thr = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(e, 2));
            if (PyErr_Occurred() || thr > (1ULL << 53)) { fail("option threshold"); goto error; }
            p->opt_thr[o] = thr;
        }
    }
    p->node_first[p->n_nodes] = o;
    PyObject *cap = PyCapsule_New(p, CAPSULE, capsule_free);
    if (!cap) goto error;
    return cap;
error:
    plan_free(p);
    return NULL;
}

/* Fisher-Yates over cards (one raw output per swap, from the last position down), then
 * counts[i] of them to out[slots[i]]; no draw when they all go to one slot. */
static void deal_out(bitgen_t *bg, const int *cards, int n, const int *slots, const int *counts,
                     int ns, u128 *out) {
    int nonzero = 0;
    for (int i = 0; i < ns; i++) nonzero += counts[i] > 0;
    if (nonzero <= 1) {
        u128 m = 0;
        for (int i = 0; i < n; i++) m |= (u128)1 << cards[i];
        for (int i = 0; i < ns; i++)
            if (counts[i]) out[slots[i]] |= m;
        return;
    }
    int order[NCARDS];
    memcpy(order, cards, (size_t)n * sizeof(int));
    for (int i = n - 1; i > 0; i--) {
        uint64_t raw = bg->next_raw(bg->state);
        int j = (int)(((u128)raw * (uint64_t)(i + 1)) >> 64);
        int x = order[i];
        order[i] = order[j], order[j] = x;
    }
    int pos = 0;
    for (int i = 0; i < ns; i++) {
        u128 m = 0;
        for (int k = 0; k < counts[i]; k++) m |= (u128)1 << order[pos + k];
        out[slots[i]] |= m;
        pos += counts[i];
    }
}

static PyObject *mask_object(u128 m) {
    uint64_t lo = (uint64_t)m, hi = (uint64_t)(m >> 64);
    if (!hi) return PyLong_FromUnsignedLongLong(lo);
    unsigned char bytes[16];
    for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(m >> (8 * i));
    return _PyLong_FromByteArray(bytes, 16, 1, 0);
}

static PyObject *py_sample(PyObject *self, PyObject *args) {
    PyObject *pcap, *gcap;
    if (!PyArg_ParseTuple(args, "OO", &pcap, &gcap)) return NULL;
    Plan *p = PyCapsule_GetPointer(pcap, CAPSULE);
    if (!p) return NULL;
    bitgen_t *bg = PyCapsule_GetPointer(gcap, "BitGenerator");
    if (!bg) return NULL;
    u128 out[MAXS] = {0}, world[MAXS] = {0};
    int node = 0;
    for (int g = 0; g < p->n_groups; g++) {
        int first = p->node_first[node], n_opt = p->node_first[node + 1] - first;
        int pick = 0;
        if (n_opt > 1) {
            uint64_t u = bg->next_raw(bg->state) >> THRESHOLD_SHIFT;
            while (pick < n_opt - 1 && u >= p->opt_thr[first + pick]) pick++;
        }
        int o = first + pick;
        deal_out(bg, p->group_cards + p->group_start[g], p->group_start[g + 1] - p->group_start[g],
                 p->group_slots[g], p->opt_k + (size_t)o * MAXS, p->group_nslots[g], out);
        node = p->opt_child[o];
    }
    int all[MAXS];
    for (int c = 0; c < p->n_classes; c++) all[c] = c;
    deal_out(bg, p->free_cards, p->n_free, all, p->node_caps + (size_t)node * p->n_classes,
             p->n_classes, out);
    for (int c = 0; c < p->n_classes; c++) {
        if (p->class_n[c] == 1) {
            world[p->class_members[c][0]] = out[c];
            continue;
        }
        int cards[NCARDS], n = 0;
        for (int b = 0; b < NCARDS; b++)
            if ((out[c] >> b) & 1) cards[n++] = b;
        deal_out(bg, cards, n, p->class_members[c], p->class_caps[c], p->class_n[c], world);
    }
    PyObject *list = PyList_New(p->n_slots);
    if (!list) return NULL;
    for (int j = 0; j < p->n_slots; j++) {
        PyObject *m = mask_object(world[j]);
        if (!m) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, j, m);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"plan", py_plan, METH_VARARGS,
     "plan(n_slots, classes, groups, free, nodes): a sampler's tables, built once."},
    {"sample", py_sample, METH_VARARGS,
     "sample(plan, bit_generator_capsule): one world, a bitmask per slot."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_csample",
                                    "The compiled twin of mazzo.agents.sampling.SlotSampler.sample.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__csample(void) { return PyModule_Create(&module); }
