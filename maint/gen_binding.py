#!/usr/bin/env python3
"""Generates the MPI binding layer from the API descriptions in maint/api/*.api.

Every public function is described once, by its parameters' kinds. From that one line this script
writes PMPI_X (argument checks, handle validation, the call to MPIR_X_impl, the error report that
names the function and every argument), the weak alias MPI_X, the large-count twin X_c and the
MPI-3 twin X_x where the description asks for them, and the prototypes in mpi_proto.h.

Description syntax (one function per line, '#' starts a comment):

    MPI_Type_vector(count: COUNT, blocklength: COUNT, stride: POLY, oldtype: DATATYPE,
                    newtype: DATATYPE_OUT) c impl_is_c

Continuation lines are joined until the parentheses balance. Flags after the parameter list:
    c         also generate NAME_c, where every poly kind takes MPI_Count
    x         also generate NAME_x (same signature as NAME_c)
    noinit    may be called before MPI_Init and after MPI_Finalize
    impl_is_c the implementation takes a trailing 'bool is_c' (true for the _c twin)
    impl=NAME call NAME instead of MPIR_<stem>_impl

Usage: gen_binding.py API_DIR OUT_DIR
"""
import os
import re
import sys

# kind -> (C type, C type in the _c/_x twin, implementation type)
#   Poly kinds change width in the large-count twin; the implementation always takes the wide one.
SCALARS = {
    'COUNT': ('int', 'MPI_Count', 'MPI_Count'),      # non-negative count
    'POLY': ('int', 'MPI_Count', 'MPI_Count'),       # signed integer that widens (stride, displacement)
    'ADDR': ('MPI_Aint', 'MPI_Count', 'MPI_Aint'),   # byte displacement that becomes MPI_Count in _c
    'AINT': ('MPI_Aint', 'MPI_Aint', 'MPI_Aint'),
    'INT': ('int', 'int', 'int'),
    'DATATYPE': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),
    'DATATYPE_OR_NULL': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),
    'DATATYPE_COMMITTED': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),  # valid and committed
    'COMM': ('MPI_Comm', 'MPI_Comm', 'MPI_Comm'),
    'ERRHANDLER': ('MPI_Errhandler', 'MPI_Errhandler', 'MPI_Errhandler'),
    'KEYVAL': ('int', 'int', 'int'),
    'BUF': ('const void *', 'const void *', 'const void *'),
    'PTR': ('void *', 'void *', 'void *'),
    'STRING': ('const char *', 'const char *', 'const char *'),
}
# pointer kinds: (C type, C type in twin, impl type, must be non-NULL)
POINTERS = {
    'DATATYPE_OUT': ('MPI_Datatype *', 'MPI_Datatype *', 'MPI_Datatype *', True),
    'DATATYPE_INOUT': ('MPI_Datatype *', 'MPI_Datatype *', 'MPI_Datatype *', True),
    'COMM_INOUT': ('MPI_Comm *', 'MPI_Comm *', 'MPI_Comm *', True),
    'ERRHANDLER_OUT': ('MPI_Errhandler *', 'MPI_Errhandler *', 'MPI_Errhandler *', True),
    'ERRHANDLER_INOUT': ('MPI_Errhandler *', 'MPI_Errhandler *', 'MPI_Errhandler *', True),
    'INT_OUT': ('int *', 'int *', 'int *', True),
    'LCOUNT_OUT': ('MPI_Count *', 'MPI_Count *', 'MPI_Count *', True),
    'INT_INOUT': ('int *', 'int *', 'int *', True),
    'AINT_OUT': ('MPI_Aint *', 'MPI_Aint *', 'MPI_Aint *', True),
    'ADDR_OUT': ('MPI_Aint *', 'MPI_Count *', 'MPI_Aint *', True),
    'COUNT_OUT': ('int *', 'MPI_Count *', 'MPI_Count *', True),   # MPI_UNDEFINED if it does not fit
    'COUNT_INOUT': ('int *', 'MPI_Count *', 'MPI_Count *', True),  # a position: in and out
    'ADDR_INOUT': ('MPI_Aint *', 'MPI_Count *', 'MPI_Aint *', True),
    'PTR_OUT': ('void *', 'void *', 'void *', True),
    'STRING_OUT': ('char *', 'char *', 'char *', True),
    'STATUS': ('MPI_Status *', 'MPI_Status *', 'MPI_Status *', True),
    'CONST_STATUS': ('const MPI_Status *', 'const MPI_Status *', 'const MPI_Status *', True),
}
# array kinds (written NAME: KIND[length]): (C element type, twin element type, impl element type)
ARRAYS = {
    'COUNT': ('int', 'MPI_Count', 'MPI_Count'),
    'POLY': ('int', 'MPI_Count', 'MPI_Count'),
    'ADDR': ('MPI_Aint', 'MPI_Count', 'MPI_Aint'),
    'INT': ('int', 'int', 'int'),
    'DATATYPE': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),
}
WIDE = {'int': False, 'MPI_Count': True, 'MPI_Aint': True, 'MPI_Datatype': False}


class Param:
    def __init__(self, name, kind):
        self.name = name
        m = re.fullmatch(r'(\w+)\[(\w+)\]', kind)
        self.length = None
        if m:
            self.kind, self.length = m.group(1), m.group(2)
            if self.kind not in ARRAYS:
                raise SystemExit(f'unknown array kind {kind}')
        elif kind.startswith('RAW(') and kind.endswith(')'):
            self.kind = 'RAW'
            self.raw = kind[4:-1].strip()
        elif kind.startswith('FUNC(') and kind.endswith(')'):
            self.kind = 'FUNC'
            self.raw = kind[5:-1].strip() + ' *'
        else:
            self.kind = kind
            if kind not in SCALARS and kind not in POINTERS:
                raise SystemExit(f'unknown kind {kind}')

    def ctype(self, large):
        if self.length:
            return 'const ' + ARRAYS[self.kind][1 if large else 0] + ' *'
        if self.kind in ('RAW', 'FUNC'):
            return self.raw
        table = SCALARS if self.kind in SCALARS else POINTERS
        return table[self.kind][1 if large else 0]

    def decl(self, large):
        t = self.ctype(large)
        return f'{t}{self.name}' if t.endswith('*') else f'{t} {self.name}'

    def impl_decl(self):
        if self.length:
            t = 'const ' + ARRAYS[self.kind][2] + ' *'
        elif self.kind in ('RAW', 'FUNC'):
            t = self.raw
        else:
            t = (SCALARS if self.kind in SCALARS else POINTERS)[self.kind][2]
        return f'{t}{self.name}' if t.endswith('*') else f'{t} {self.name}'

    def needs_widening(self, large):
        """An int array that the implementation takes as 64-bit values."""
        if not self.length:
            return False
        c = ARRAYS[self.kind][1 if large else 0]
        return c == 'int' and ARRAYS[self.kind][2] != 'int'


class Function:
    def __init__(self, name, params, flags):
        self.name = name
        self.params = params
        self.flags = set(f for f in flags if '=' not in f)
        self.impl = 'MPIR_' + name.split('_', 1)[1] + '_impl'
        self.returns = None     # a function that returns a value, not an error code
        for f in flags:
            if f.startswith('impl='):
                self.impl = f[5:]
            elif f.startswith('returns='):
                self.returns = f[8:].replace('_', ' ') if f[8:] == 'unused' else f[8:]


def parse(path):
    text = re.sub(r'#[^\n]*', '', open(path).read())
    funcs = []
    pos = 0
    while True:
        m = re.compile(r'(MPIX?_\w+)\s*\(').search(text, pos)
        if not m:
            return funcs
        depth, i = 1, m.end()
        while depth:
            depth += {'(': 1, ')': -1}.get(text[i], 0)
            i += 1
        plist = text[m.end():i - 1]
        eol = text.find('\n', i)
        eol = len(text) if eol < 0 else eol
        flags = text[i:eol].split()
        pos = eol
        params, depth, cur = [], 0, ''
        for ch in plist + ',':
            if ch == ',' and depth == 0:
                if cur.strip():
                    pname, kind = [t.strip() for t in cur.split(':', 1)]
                    params.append(Param(pname, ' '.join(kind.split())))
                cur = ''
                continue
            depth += {'(': 1, ')': -1}.get(ch, 0)
            cur += ch
        funcs.append(Function(m.group(1), params, flags))


def fmt_of(p, large):
    """printf conversion and argument for the error report."""
    if p.kind == 'RAW' and not p.raw.endswith('*'):
        return ('%lld', f'(long long) {p.name}') if 'Count' in p.raw else ('%d', f'(int) {p.name}')
    if p.length or p.kind in POINTERS or p.kind in ('PTR', 'BUF', 'STRING', 'RAW', 'FUNC'):
        if p.kind == 'FUNC':
            return '%p', f'(void *) (size_t) {p.name}'
        return '%p', f'(const void *) {p.name}'
    if p.kind in ('DATATYPE', 'DATATYPE_OR_NULL', 'DATATYPE_COMMITTED'):
        return '%s', f'MPIR_Datatype_str({p.name}, s_{p.name})'
    if p.kind == 'COMM':
        return '%s', f'MPIR_Comm_str({p.name}, s_{p.name})'
    if p.kind in ('ERRHANDLER', 'KEYVAL'):
        return '%#x', f'(unsigned) {p.name}'
    t = p.ctype(large)
    if t == 'int':
        return '%d', p.name
    return '%lld', f'(long long) {p.name}'


def check_lines(fn, p, large):
    """Argument checks in the order the parameters appear."""
    n = p.name
    out = []
    def fail(cls, msg, *args):
        a = ''.join(', ' + x for x in args)
        return f'{{ err = MPIR_Err({cls}, "{msg}"{a}); goto fn_fail; }}'
    if p.length:
        out.append(f'if ({p.length} > 0 && {n} == NULL) ' + fail('MPI_ERR_ARG', f'{n} is NULL'))
        if p.kind == 'COUNT':
            out.append(f'for (MPI_Count i_ = 0; i_ < (MPI_Count) {p.length}; i_++)')
            out.append(f'    if ({n}[i_] < 0) ' + fail('MPI_ERR_COUNT',
                       f'invalid {n}[%lld] = %lld, must be non-negative', '(long long) i_',
                       f'(long long) {n}[i_]'))
        elif p.kind == 'DATATYPE':
            out.append(f'for (MPI_Count i_ = 0; i_ < (MPI_Count) {p.length}; i_++)')
            out.append(f'    if (!MPID_Datatype_lookup({n}[i_])) {{ err = MPIR_Err_datatype("{n}", {n}[i_], i_); goto fn_fail; }}')
        return out
    k = p.kind
    if k == 'COUNT':
        out.append(f'if ({n} < 0) ' + fail('MPI_ERR_COUNT', f'invalid {n}, must be non-negative'))
    elif k == 'DATATYPE':
        out.append(f'if (!MPID_Datatype_lookup({n})) {{ err = MPIR_Err_datatype("{n}", {n}, -1); goto fn_fail; }}')
    elif k == 'DATATYPE_COMMITTED':
        out.append(f'if (!MPID_Datatype_lookup({n})) {{ err = MPIR_Err_datatype("{n}", {n}, -1); goto fn_fail; }}')
        out.append(f'if (!MPID_Datatype_get({n})->is_committed) '
                   + fail('MPI_ERR_TYPE', f'{n} is not committed (call MPI_Type_commit first)'))
    elif k == 'DATATYPE_OR_NULL':
        out.append(f'if ({n} != MPI_DATATYPE_NULL && !MPID_Datatype_lookup({n})) '
                   f'{{ err = MPIR_Err_datatype("{n}", {n}, -1); goto fn_fail; }}')
    elif k == 'COMM':
        out.append(f'if (!MPIR_Comm_lookup({n})) ' + fail('MPI_ERR_COMM', f'invalid communicator {n}'))
    elif k == 'ERRHANDLER':
        out.append(f'if (!MPIR_Errhandler_lookup({n})) '
                   + fail('MPI_ERR_ERRHANDLER', f'invalid error handler {n}'))
    elif k == 'STRING':
        out.append(f'if ({n} == NULL) ' + fail('MPI_ERR_ARG', f'{n} is NULL'))
    elif k in POINTERS:
        out.append(f'if ({n} == NULL) ' + fail('MPI_ERR_ARG', f'{n} is NULL'))
        if k == 'DATATYPE_INOUT':
            out.append(f'if (!MPID_Datatype_lookup(*{n})) {{ err = MPIR_Err_datatype("*{n}", *{n}, -1); goto fn_fail; }}')
        elif k == 'COMM_INOUT':
            out.append(f'if (!MPIR_Comm_lookup(*{n})) ' + fail('MPI_ERR_COMM', f'invalid communicator *{n}'))
        elif k == 'ERRHANDLER_INOUT':
            out.append(f'if (!MPIR_Errhandler_lookup(*{n})) '
                       + fail('MPI_ERR_ERRHANDLER', f'invalid error handler *{n}'))
    return out


def emit_function(fn, suffix, large, out):
    name = fn.name + suffix
    decls = ', '.join(p.decl(large) for p in fn.params) or 'void'
    if fn.returns:
        # conversions and address arithmetic: no error code to report, nothing to check
        call = f'{fn.impl}({", ".join(p.name for p in fn.params)})'
        out.append(f'{fn.returns} P{name}({decls})\n{{\n    return {call};\n}}\n')
        out.append('#ifdef HAVE_WEAK_ALIAS\n'
                   f'{fn.returns} {name}({decls}) __attribute__((weak, alias("P{name}")));\n'
                   '#else\n'
                   f'{fn.returns} {name}({decls})\n{{\n    return P{name}({", ".join(p.name for p in fn.params)});\n}}\n'
                   '#endif\n')
        return
    body = []
    body.append('    int err = MPI_SUCCESS;')
    widened = [p for p in fn.params if p.needs_widening(large)]
    for p in widened:
        body.append(f'    {ARRAYS[p.kind][2]} *w_{p.name} = NULL;')
    narrowed = [p for p in fn.params if p.kind in ('COUNT_OUT', 'COUNT_INOUT') and not large]
    for p in narrowed:
        body.append(f'    MPI_Count n_{p.name} = 0;')
    if 'noinit' not in fn.flags:
        body.append('    if (!MPIR_Is_initialized()) { err = MPIR_Err_not_initialized(); goto fn_fail; }')
    for p in fn.params:
        for line in check_lines(fn, p, large):
            body.append('    ' + line)
    for p in narrowed:
        if p.kind == 'COUNT_INOUT':
            body.append(f'    n_{p.name} = *{p.name};')
    for p in widened:
        body.append(f'    err = MPIR_Widen_ints({p.name}, {p.length}, &w_{p.name});')
        body.append('    if (err) goto fn_fail;')
    args = []
    for p in fn.params:
        if p in widened:
            args.append(f'w_{p.name}')
        elif p in narrowed:
            args.append(f'&n_{p.name}')
        elif p.kind in ('ADDR_OUT', 'ADDR_INOUT') and large:
            args.append(f'(MPI_Aint *) {p.name}')
        elif p.length and large and ARRAYS[p.kind][1] != ARRAYS[p.kind][2]:
            args.append(f'(const {ARRAYS[p.kind][2]} *) {p.name}')
        elif p.kind == 'PTR_OUT':
            args.append(p.name)
        else:
            args.append(p.name)
    if 'impl_is_c' in fn.flags:
        args.append('true' if suffix == '_c' else 'false')
    body.append(f'    err = {fn.impl}({", ".join(args)});')
    if not any('goto fn_fail' in line for line in body):
        body.append('    goto fn_fail;   /* one exit path, also for calls that check nothing */')
    for p in narrowed:
        body.append(f'    if (err == MPI_SUCCESS) *{p.name} = n_{p.name} > INT_MAX ? MPI_UNDEFINED : (int) n_{p.name};')
    body.append('  fn_fail:')
    for p in widened:
        body.append(f'    free(w_{p.name});')
    body.append('    if (err != MPI_SUCCESS) {')
    fmts, fargs = [], []
    for p in fn.params:
        f, a = fmt_of(p, large)
        fmts.append(f'{p.name}={f}')
        fargs.append(a)
        if p.kind in ('DATATYPE', 'DATATYPE_OR_NULL', 'DATATYPE_COMMITTED', 'COMM') and not p.length:
            body.append(f'        char s_{p.name}[MPIR_HANDLE_STR_MAX];')
    sink = next((p.name for p in fn.params if p.kind == 'COMM'), 'MPI_COMM_NULL')
    argstr = ''.join(', ' + a for a in fargs)
    body.append(f'        err = MPIR_Err_return({sink}, err, "{name}({", ".join(fmts)})"{argstr});')
    body.append('    }')
    body.append('    return err;')
    out.append(f'int P{name}({decls})\n{{\n' + '\n'.join(body) + '\n}\n')
    out.append('#ifdef HAVE_WEAK_ALIAS\n'
               f'int {name}({decls}) __attribute__((weak, alias("P{name}")));\n'
               '#else\n'
               f'int {name}({decls})\n{{\n    return P{name}({", ".join(p.name for p in fn.params)});\n}}\n'
               '#endif\n')


def variants(fn):
    yield '', False
    if 'c' in fn.flags:
        yield '_c', True
    if 'x' in fn.flags:
        yield '_x', True


def main():
    api_dir, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    generated, protos, impl_protos = [], [], []
    for fname in sorted(os.listdir(api_dir)):
        if not fname.endswith('.api'):
            continue
        funcs = parse(os.path.join(api_dir, fname))
        stem = fname[:-4]
        out = [f'/* Generated by maint/gen_binding.py from maint/api/{fname}: do not edit. */\n',
               '#include "mpiimpl.h"\n', '#include "mpir_impl_proto.h"\n']
        for fn in funcs:
            idecl = [p.impl_decl() for p in fn.params] + (['bool is_c'] if 'impl_is_c' in fn.flags else [])
            rtype = fn.returns or 'int'
            proto = f'{rtype} {fn.impl}({", ".join(idecl) or "void"});'
            if proto not in impl_protos:
                impl_protos.append(proto)
            for suffix, large in variants(fn):
                emit_function(fn, suffix, large, out)
                decls = ', '.join(p.decl(large) for p in fn.params) or 'void'
                rtype = fn.returns or 'int'
                protos.append(f'{rtype} {fn.name}{suffix}({decls});')
                protos.append(f'{rtype} P{fn.name}{suffix}({decls});')
        path = os.path.join(out_dir, f'binding_{stem}.c')
        write_if_changed(path, '\n'.join(out))
        generated.append(path)
    header = ['/* Generated by maint/gen_binding.py: the prototypes of every MPI_ and PMPI_ function. */',
              '#ifndef LOOM_MPI_PROTO_H_INCLUDED', '#define LOOM_MPI_PROTO_H_INCLUDED', ''] + protos + ['', '#endif']
    write_if_changed(os.path.join(out_dir, 'mpi_proto.h'), '\n'.join(header) + '\n')
    header = ['/* Generated by maint/gen_binding.py: what each binding calls. */',
              '#ifndef MPIR_IMPL_PROTO_H_INCLUDED', '#define MPIR_IMPL_PROTO_H_INCLUDED',
              '#include <stdbool.h>', ''] + impl_protos + ['', '#endif']
    write_if_changed(os.path.join(out_dir, 'mpir_impl_proto.h'), '\n'.join(header) + '\n')
    mk = ['# Generated by maint/gen_binding.py: do not edit.',
          'libmpi_la_SOURCES += ' + ' '.join(sorted(generated)),
          'include_HEADERS += src/binding/mpi_proto.h', '']
    write_if_changed(os.path.join(out_dir, 'Makefile.mk'), '\n'.join(mk))


def write_if_changed(path, text):
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
