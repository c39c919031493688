/* The shared helpers of the games' compiled encoders (envs/<game>/_cencode.c).
 *
 * A compiled encoder writes a batch of views into a float32 (B, obs_size) array and an int8
 * (B, num_actions) array with the same entries as the game's Python encoder (its reference,
 * which the parity tests hold it equal to). Helpers here know no game: they acquire the output
 * buffers, read view fields (tuples of Python ints), and set 0/1 entries by index, every index
 * bounds-checked so a malformed view raises instead of writing out of the row.
 */
#ifndef MAZZO_CENCODE_H
#define MAZZO_CENCODE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Widest mask a field may hold, in bytes (card masks are 40 or 97 bits; action masks 99). */
#define MZ_MASK_BYTES 32

/* ---------------------------------------------------------------- reading fields */

/* A small int field (a bool or an IntEnum is an int). -1 and an exception on failure. */
static inline int mz_small(PyObject *o, long long *out, const char *field) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "view field %s must be a small int", field);
        return -1;
    }
    *out = v;
    return 0;
}

/* A non-negative int of at most 8 * MZ_MASK_BYTES bits as little-endian 64-bit words: words[0]
 * .. words[*n - 1] (*n is 1 for an int of at most 64 bits, the common case, read in one call). */
static inline int mz_words(PyObject *o, uint64_t *words, int *n, const char *field) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "view field %s must be an int bitmask, got %.80s", field,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    if (_PyLong_Sign(o) < 0) {
        PyErr_Format(PyExc_OverflowError, "view field %s must be a non-negative bitmask", field);
        return -1;
    }
    size_t nbits = _PyLong_NumBits(o);
    if (nbits <= 64) {
        words[0] = (uint64_t)PyLong_AsUnsignedLongLong(o);
        *n = 1;
        return 0;
    }
    if (nbits > 8 * MZ_MASK_BYTES) {
        PyErr_Format(PyExc_OverflowError, "view field %s holds more than %d bits", field,
                     8 * MZ_MASK_BYTES);
        return -1;
    }
    unsigned char buf[MZ_MASK_BYTES] = {0};
    size_t nbytes = (nbits + 7) / 8;
#if PY_VERSION_HEX >= 0x030D0000
    if (PyLong_AsNativeBytes(o, buf, (Py_ssize_t)nbytes,
                             Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER) < 0)
        return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, buf, nbytes, 1, 0) < 0) {
        return -1;
    }
#endif
    *n = (int)((nbytes + 7) / 8);
    for (int w = 0; w < *n; w++) {
        uint64_t x = 0;
        for (int k = 0; k < 8; k++) {
            x |= (uint64_t)buf[8 * w + k] << (8 * k);
        }
        words[w] = x;
    }
    return 0;
}

/* A tuple field of exactly n items (n < 0: any length); its items, borrowed. */
static inline PyObject *mz_tuple(PyObject *o, Py_ssize_t n, const char *field) {
    if (!PyTuple_Check(o) || (n >= 0 && PyTuple_GET_SIZE(o) != n)) {
        if (n >= 0) {
            PyErr_Format(PyExc_TypeError, "view field %s must be a tuple of %zd items", field,
                         n);
        } else {
            PyErr_Format(PyExc_TypeError, "view field %s must be a tuple", field);
        }
        return NULL;
    }
    return o;
}

/* ---------------------------------------------------------------- writing a row */

typedef struct {
    float *row;    /* the observation row */
    long long n;   /* the length of its binary part */
} MzRow;

/* Entry idx of the binary part is 1. */
static inline int mz_bit(const MzRow *r, long long idx, const char *field) {
    if (idx < 0 || idx >= r->n) {
        PyErr_Format(PyExc_ValueError, "view field %s puts a bit at %lld, outside 0..%lld", field,
                     idx, r->n - 1);
        return -1;
    }
    r->row[idx] = 1.0f;
    return 0;
}

/* Bit b of the 64-bit mask m is entry off + b. */
static inline int mz_mask64(const MzRow *r, long long off, uint64_t m, const char *field) {
    while (m) {
        int b = __builtin_ctzll(m);
        m &= m - 1;
        if (mz_bit(r, off + b, field) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Bit b of the int mask o is entry off + b (the Python encoder's ``mask << off``). */
static inline int mz_mask(const MzRow *r, long long off, PyObject *o, const char *field) {
    uint64_t words[MZ_MASK_BYTES / 8];
    int n;
    if (mz_words(o, words, &n, field) < 0) {
        return -1;
    }
    for (int w = 0; w < n; w++) {
        if (mz_mask64(r, off + 64LL * w, words[w], field) < 0) {
            return -1;
        }
    }
    return 0;
}

/* An int mask of at most 64 bits. */
static inline int mz_u64(PyObject *o, uint64_t *out, const char *field) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "view field %s must be an int bitmask, got %.80s", field,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_OverflowError,
                     "view field %s must be a non-negative bitmask of at most 64 bits", field);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

/* A non-zero number attribute of o (the view's rules: a scale the encoder divides by). */
static inline int mz_scale(PyObject *o, PyObject *name, double *out) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v) {
        return -1;
    }
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (*out == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (*out == 0.0) {
        PyErr_Format(PyExc_ZeroDivisionError, "rules.%U is 0", name);
        return -1;
    }
    return 0;
}

/* The legal mask o as 0/1 int8 entries of a mask row of width n (bits past n are dropped, as
 * the Python encoder's unpack to n entries drops them). */
static inline int mz_legal(int8_t *row, long long n, PyObject *o) {
    uint64_t words[MZ_MASK_BYTES / 8];
    int nw;
    if (mz_words(o, words, &nw, "legal_mask") < 0) {
        return -1;
    }
    memset(row, 0, (size_t)n);
    for (int w = 0; w < nw; w++) {
        uint64_t m = words[w];
        while (m) {
            long long i = 64LL * w + __builtin_ctzll(m);
            m &= m - 1;
            if (i < n) {
                row[i] = 1;
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- output buffers */

/* A writable C-contiguous 2-D buffer of format fmt ("f": float32, "b": int8) with at least
 * rows rows of width width. */
static inline int mz_out(PyObject *o, Py_buffer *buf, const char *name, char fmt,
                         Py_ssize_t itemsize, Py_ssize_t rows, Py_ssize_t width) {
    if (PyObject_GetBuffer(o, buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a writable C-contiguous array", name);
        return -1;
    }
    const char *f = buf->format ? buf->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') {
        f++;
    }
    if (buf->ndim != 2 || buf->itemsize != itemsize || f[0] != fmt || f[1] != '\0' ||
        buf->shape[1] != width || buf->shape[0] < rows) {
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous %s array of shape (>= %zd, %zd)",
                     name, fmt == 'f' ? "float32" : "int8", rows, width);
        PyBuffer_Release(buf);
        return -1;
    }
    return 0;
}

/* Read a tuple of n small ints (the layout handed over by configure()). */
static inline int mz_layout(PyObject *args, long long *out, Py_ssize_t n) {
    PyObject *t;
    if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &t)) {
        return -1;
    }
    if (PyTuple_GET_SIZE(t) != n) {
        PyErr_Format(PyExc_ValueError, "configure needs %zd layout ints, got %zd", n,
                     PyTuple_GET_SIZE(t));
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (mz_small(PyTuple_GET_ITEM(t, i), &out[i], "layout") < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the module's functions */

/* One view into one observation row (and its mask row, or NULL): the game's part. */
typedef int (*mz_view_fn)(PyObject *view, float *row, int8_t *mask);

/* encode_rows(views, obs, masks=None): every view through encode_view, row by row. */
static PyObject *mz_encode_rows(PyObject *args, int configured, long long obs_size,
                                long long num_actions, mz_view_fn encode_view) {
    PyObject *views, *obs, *masks = Py_None;
    if (!PyArg_ParseTuple(args, "OO|O", &views, &obs, &masks)) {
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() the compiled encoder first");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(views, "views must be a sequence");
    if (!seq) {
        return NULL;
    }
    Py_ssize_t b = PySequence_Fast_GET_SIZE(seq);
    Py_buffer ob, mb;
    int have_masks = masks != Py_None;
    if (mz_out(obs, &ob, "obs", 'f', 4, b, obs_size) < 0) {
        Py_DECREF(seq);
        return NULL;
    }
    if (have_masks && mz_out(masks, &mb, "masks", 'b', 1, b, num_actions) < 0) {
        PyBuffer_Release(&ob);
        Py_DECREF(seq);
        return NULL;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int failed = 0;
    for (Py_ssize_t i = 0; i < b && !failed; i++) {
        float *row = (float *)ob.buf + i * obs_size;
        int8_t *mask = have_masks ? (int8_t *)mb.buf + i * num_actions : NULL;
        failed = encode_view(items[i], row, mask) < 0;
    }
    PyBuffer_Release(&ob);
    if (have_masks) {
        PyBuffer_Release(&mb);
    }
    Py_DECREF(seq);
    if (failed) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The module, with LAYOUT: the names of the n layout ints configure() takes, in order. */
static PyObject *mz_module(PyModuleDef *def, const char *const *names, Py_ssize_t n) {
    PyObject *m = PyModule_Create(def);
    if (!m) {
        return NULL;
    }
    PyObject *layout = PyTuple_New(n);
    if (!layout) {
        Py_DECREF(m);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyUnicode_FromString(names[i]);
        if (!name) {
            Py_DECREF(layout);
            Py_DECREF(m);
            return NULL;
        }
        PyTuple_SET_ITEM(layout, i, name);
    }
    if (PyModule_AddObject(m, "LAYOUT", layout) < 0) {
        Py_DECREF(layout);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

/* ---------------------------------------------------------------- a game's module */

/* The layout's enum (L_<name>), its names (LAYOUT_NAMES), the values configure() received (L),
 * and FIELD(view, L_F_<field>), from the game's X-macro LAYOUT(X). Every layout names
 * N_BINARY, OBS_SIZE and NUM_ACTIONS. */
#define MZ_LAYOUT_NAME_ENUM(name) L_##name,
#define MZ_LAYOUT_NAME_STRING(name) #name,
#define MZ_LAYOUT_STATE(LAYOUT)                                                                   \
    enum { LAYOUT(MZ_LAYOUT_NAME_ENUM) L_COUNT };                                                 \
    static const char *const LAYOUT_NAMES[] = {LAYOUT(MZ_LAYOUT_NAME_STRING)};                    \
    static long long L[L_COUNT];                                                                  \
    static int configured = 0;
#define FIELD(v, f) PyTuple_GET_ITEM((v), L[f])

/* configure(layout): the values, checked to leave n_scalars entries after the binary part. */
static PyObject *mz_configure(PyObject *args, long long *layout, Py_ssize_t n, int *configured,
                              long long n_binary_index, long long obs_size_index,
                              long long n_scalars) {
    *configured = 0;
    if (mz_layout(args, layout, n) < 0) {
        return NULL;
    }
    if (layout[obs_size_index] - layout[n_binary_index] != n_scalars) {
        PyErr_Format(PyExc_ValueError, "the layout must have %lld scalars", n_scalars);
        return NULL;
    }
    *configured = 1;
    Py_RETURN_NONE;
}

/* The module mazzo.envs.<GAME>._cencode around the game's encode_view: configure, encode_rows, LAYOUT
 * and one interned name (ATTR_VAR, the text ATTR) that encode_view reads from the view's rules. */
#define MZ_MODULE(GAME, TITLE, N_SCALARS, ATTR_VAR, ATTR)                                        \
    static PyObject *configure(PyObject *self, PyObject *args) {                                  \
        return mz_configure(args, L, L_COUNT, &configured, L_N_BINARY, L_OBS_SIZE, N_SCALARS);    \
    }                                                                                             \
    static PyObject *encode_rows(PyObject *self, PyObject *args) {                                \
        return mz_encode_rows(args, configured, L[L_OBS_SIZE], L[L_NUM_ACTIONS], encode_view);    \
    }                                                                                             \
    static PyMethodDef methods[] = {                                                              \
        {"configure", configure, METH_VARARGS, "Hand over the layout (envs/" GAME "/encode.py)."}, \
        {"encode_rows", encode_rows, METH_VARARGS,                                                \
         "encode_rows(views, obs, masks=None): write each view's observation into obs[i] and "    \
         "its legal mask into masks[i]."},                                                        \
        {NULL, NULL, 0, NULL},                                                                    \
    };                                                                                            \
    static struct PyModuleDef module = {                                                          \
        PyModuleDef_HEAD_INIT, "envs." GAME "._cencode",                                          \
        TITLE "'s compiled encoder (the reference is envs/" GAME "/encode.py).", -1, methods,     \
    };                                                                                            \
    PyMODINIT_FUNC PyInit__cencode(void) {                                                        \
        ATTR_VAR = PyUnicode_InternFromString(ATTR);                                              \
        if (!ATTR_VAR) {                                                                          \
            return NULL;                                                                          \
        }                                                                                         \
        return mz_module(&module, LAYOUT_NAMES, L_COUNT);                                         \
    }

#endif
