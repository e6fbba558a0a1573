/* test_intern.c: identifiers, types and attributes are one pointer when equal
 * and different when not; dictionaries sort; integers and floats are normalised
 * to their type; the float formats round to nearest even and round-trip bits. */
#include "check.h"
#include "ptoc/ir.h"

#include <math.h>
#include <string.h>

static void test_idents(ptoc_context *ctx)
{
    char buf[8] = "abc";
    CHECK(ptoc_ident_cstr(ctx, "abc") == ptoc_ident_get(ctx, buf, 3));
    CHECK(ptoc_ident_cstr(ctx, "abc") != ptoc_ident_cstr(ctx, "abd"));
    CHECK(ptoc_ident_get(ctx, "a\0b", 3)->len == 3);
    CHECK(ptoc_ident_get(ctx, "a\0b", 3) != ptoc_ident_get(ctx, "a\0c", 3));
    CHECK(ptoc_ident_get(ctx, "", 0)->str[0] == '\0');
}

static void test_many_idents(ptoc_context *ctx)
{
    char name[32];
    ptoc_ident *first[2000];
    int i, ok = 1;
    for (i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "v%d", i);
        first[i] = ptoc_ident_cstr(ctx, name);
    }
    for (i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "v%d", i);
        ok &= first[i] == ptoc_ident_cstr(ctx, name) && strcmp(first[i]->str, name) == 0;
    }
    CHECK(ok);
}

static void test_types(ptoc_context *ctx)
{
    ptoc_type *i32 = ptoc_type_int(ctx, 32, PTOC_SIGNLESS), *f16 = ptoc_type_float(ctx, PTOC_F16);
    int64_t shape[2] = {4, PTOC_DYNAMIC}, shape2[2] = {4, 8};
    ptoc_type *ins[2] = {i32, f16};
    ptoc_ident *pto = ptoc_ident_cstr(ctx, "pto"), *body = ptoc_ident_cstr(ctx, "tile<x>");
    struct { int a; int b; } blob = {1, 2}, blob2 = {1, 3};
    static const ptoc_dialect dialect = {.name = "test"};
    CHECK(i32 == ptoc_type_int(ctx, 32, PTOC_SIGNLESS));
    CHECK(i32 != ptoc_type_int(ctx, 32, PTOC_SIGNED));
    CHECK(i32 != ptoc_type_int(ctx, 64, PTOC_SIGNLESS));
    CHECK(ptoc_type_index(ctx) == ptoc_type_index(ctx));
    CHECK(ptoc_type_none(ctx) != ptoc_type_index(ctx));
    CHECK(f16 == ptoc_type_float(ctx, PTOC_F16) && f16 != ptoc_type_float(ctx, PTOC_BF16));
    CHECK(ptoc_type_memref(ctx, 2, shape, f16, NULL, NULL) == ptoc_type_memref(ctx, 2, shape, f16, NULL, NULL));
    CHECK(ptoc_type_memref(ctx, 2, shape, f16, NULL, NULL) != ptoc_type_memref(ctx, 2, shape2, f16, NULL, NULL));
    CHECK(ptoc_type_memref(ctx, 2, shape, f16, NULL, NULL) != ptoc_type_tensor(ctx, 2, shape, f16));
    CHECK(ptoc_type_memref(ctx, 2, shape, f16, NULL, ptoc_attr_int(ctx, NULL, 1)) !=
          ptoc_type_memref(ctx, 2, shape, f16, NULL, NULL));
    CHECK(ptoc_type_vector(ctx, 2, shape2, i32)->u.shaped.shape != shape2);  /* copied */
    shape2[0] = 99;
    CHECK(ptoc_type_vector(ctx, 2, shape2, i32)->u.shaped.shape[0] == 99);
    CHECK(ptoc_type_function(ctx, 2, ins, 1, ins) == ptoc_type_function(ctx, 2, ins, 1, ins));
    CHECK(ptoc_type_function(ctx, 2, ins, 1, ins) != ptoc_type_function(ctx, 1, ins, 2, ins));
    CHECK(ptoc_type_function(ctx, 0, NULL, 0, NULL) == ptoc_type_function(ctx, 0, NULL, 0, NULL));
    CHECK(ptoc_type_opaque(ctx, pto, body) == ptoc_type_opaque(ctx, pto, body));
    CHECK(ptoc_type_dialect(ctx, &dialect, 1, &blob, sizeof blob) ==
          ptoc_type_dialect(ctx, &dialect, 1, &blob, sizeof blob));
    CHECK(ptoc_type_dialect(ctx, &dialect, 1, &blob, sizeof blob) !=
          ptoc_type_dialect(ctx, &dialect, 1, &blob2, sizeof blob2));
    CHECK(ptoc_type_dialect(ctx, &dialect, 1, &blob, sizeof blob) !=
          ptoc_type_dialect(ctx, &dialect, 2, &blob, sizeof blob));
    CHECK(ptoc_type_dialect_data(ptoc_type_dialect(ctx, &dialect, 1, &blob, sizeof blob), &dialect, 1) != NULL);
    CHECK(ptoc_type_dialect_data(ptoc_type_dialect(ctx, &dialect, 1, &blob, sizeof blob), &dialect, 2) == NULL);
    CHECK(ptoc_type_bitwidth(i32) == 32 && ptoc_type_bitwidth(ptoc_type_index(ctx)) == 64);
    CHECK(ptoc_type_bitwidth(f16) == 16 && ptoc_type_bitwidth(ptoc_type_float(ctx, PTOC_TF32)) == 19);
    CHECK(ptoc_type_bitwidth(ptoc_type_none(ctx)) == 0);
    CHECK(ptoc_type_is_int_or_index(ptoc_type_index(ctx)) && !ptoc_type_is_int(ptoc_type_index(ctx)));
    CHECK(ptoc_type_is_shaped(ptoc_type_tensor(ctx, 1, shape, f16)) && !ptoc_type_is_shaped(f16));
}

static void test_attrs(ptoc_context *ctx)
{
    ptoc_type *i8 = ptoc_type_int(ctx, 8, PTOC_SIGNLESS), *u8 = ptoc_type_int(ctx, 8, PTOC_UNSIGNED);
    ptoc_type *i1 = ptoc_type_int(ctx, 1, PTOC_SIGNLESS), *idx = ptoc_type_index(ctx);
    ptoc_attr *elems[2];
    ptoc_named_attr e1[3], e2[3];
    ptoc_ident *nested[1];
    int64_t vals[3] = {1, 2, 3};
    CHECK(ptoc_attr_unit(ctx) == ptoc_attr_unit(ctx));
    CHECK(ptoc_attr_bool(ctx, true) != ptoc_attr_bool(ctx, false));
    CHECK(ptoc_attr_int(ctx, NULL, 5) == ptoc_attr_int(ctx, ptoc_type_int(ctx, 64, PTOC_SIGNLESS), 5));
    CHECK(ptoc_attr_int(ctx, i8, 5) != ptoc_attr_int(ctx, u8, 5));
    CHECK(ptoc_attr_int(ctx, i8, 255)->u.integer.value == -1);
    CHECK(ptoc_attr_int(ctx, i8, 255) == ptoc_attr_int(ctx, i8, -1));
    CHECK(ptoc_attr_int(ctx, u8, -1)->u.integer.value == 255);
    CHECK(ptoc_attr_int(ctx, i8, 0x17f)->u.integer.value == 127);
    CHECK(ptoc_attr_int(ctx, i1, 1)->u.integer.value == 1);
    CHECK(ptoc_attr_int(ctx, i1, -1)->u.integer.value == 1);
    CHECK(ptoc_attr_int(ctx, i1, 2)->u.integer.value == 0);
    CHECK(ptoc_attr_int(ctx, idx, INT64_MIN)->u.integer.value == INT64_MIN);
    CHECK(ptoc_attr_int(ctx, ptoc_type_int(ctx, 32, PTOC_SIGNED), 0x80000000LL)->u.integer.value == -2147483648LL);
    CHECK(ptoc_attr_float(ctx, NULL, 1.5)->u.fp.type == ptoc_type_float(ctx, PTOC_F64));
    CHECK(ptoc_attr_float(ctx, ptoc_type_float(ctx, PTOC_F16), 0.1)->u.fp.value == 0.0999755859375);
    CHECK(ptoc_attr_float(ctx, ptoc_type_float(ctx, PTOC_F16), 0.1) ==
          ptoc_attr_float(ctx, ptoc_type_float(ctx, PTOC_F16), 0.0999755859375));
    CHECK(ptoc_attr_float(ctx, NULL, 0.0) != ptoc_attr_float(ctx, NULL, -0.0));
    CHECK(ptoc_attr_float(ctx, NULL, NAN) == ptoc_attr_float(ctx, NULL, NAN));
    CHECK(ptoc_attr_string(ctx, "ab", 2) == ptoc_attr_string(ctx, "abc", 2));
    CHECK(ptoc_attr_string(ctx, "ab", 2) != ptoc_attr_string(ctx, "abc", 3));
    CHECK(ptoc_attr_type(ctx, i8) == ptoc_attr_type(ctx, i8) && ptoc_attr_type(ctx, i8) != ptoc_attr_type(ctx, u8));
    elems[0] = ptoc_attr_int(ctx, NULL, 1);
    elems[1] = ptoc_attr_unit(ctx);
    CHECK(ptoc_attr_array(ctx, 2, elems) == ptoc_attr_array(ctx, 2, elems));
    CHECK(ptoc_attr_array(ctx, 2, elems) != ptoc_attr_array(ctx, 1, elems));
    CHECK(ptoc_attr_array(ctx, 0, NULL) == ptoc_attr_array(ctx, 0, NULL));

    e1[0].name = ptoc_ident_cstr(ctx, "b");
    e1[1].name = ptoc_ident_cstr(ctx, "a");
    e1[2].name = ptoc_ident_cstr(ctx, "ab");
    e1[0].value = e1[1].value = e1[2].value = ptoc_attr_unit(ctx);
    e2[0] = e1[2];
    e2[1] = e1[0];
    e2[2] = e1[1];
    CHECK(ptoc_attr_dict(ctx, 3, e1) == ptoc_attr_dict(ctx, 3, e2));
    CHECK(strcmp(ptoc_attr_dict(ctx, 3, e1)->u.dict.entries[0].name->str, "a") == 0);
    CHECK(strcmp(ptoc_attr_dict(ctx, 3, e1)->u.dict.entries[1].name->str, "ab") == 0);
    CHECK(strcmp(ptoc_attr_dict(ctx, 3, e1)->u.dict.entries[2].name->str, "b") == 0);
    CHECK(ptoc_attr_dict_get(ptoc_attr_dict(ctx, 3, e1), "ab") == ptoc_attr_unit(ctx));
    CHECK(ptoc_attr_dict_get(ptoc_attr_dict(ctx, 3, e1), "c") == NULL);
    CHECK(ptoc_attr_dict_get(ptoc_attr_dict(ctx, 0, NULL), "a") == NULL);

    nested[0] = ptoc_ident_cstr(ctx, "f");
    CHECK(ptoc_attr_symref(ctx, ptoc_ident_cstr(ctx, "m"), 1, nested) ==
          ptoc_attr_symref(ctx, ptoc_ident_cstr(ctx, "m"), 1, nested));
    CHECK(ptoc_attr_symref(ctx, ptoc_ident_cstr(ctx, "m"), 1, nested) !=
          ptoc_attr_symref(ctx, ptoc_ident_cstr(ctx, "m"), 0, NULL));
    CHECK(ptoc_attr_dense(ctx, i8, 3, vals) == ptoc_attr_dense(ctx, i8, 3, vals));
    CHECK(ptoc_attr_dense(ctx, i8, 3, vals) != ptoc_attr_dense(ctx, i8, 2, vals));
    CHECK(ptoc_attr_opaque(ctx, ptoc_ident_cstr(ctx, "x"), ptoc_ident_cstr(ctx, "<1>")) ==
          ptoc_attr_opaque(ctx, ptoc_ident_cstr(ctx, "x"), ptoc_ident_cstr(ctx, "<1>")));
}

static void test_float_rounding(void)
{
    CHECK(ptoc_float_round(PTOC_F16, 0.1) == 0.0999755859375);
    CHECK(ptoc_float_round(PTOC_F32, 0.1) == (double)0.1f);
    CHECK(ptoc_float_round(PTOC_F64, 0.1) == 0.1);
    CHECK(ptoc_float_round(PTOC_BF16, 0.1) == 0.10009765625);
    CHECK(ptoc_float_round(PTOC_BF16, 1.0 + 1.0 / 256) == 1.0);            /* tie to even */
    CHECK(ptoc_float_round(PTOC_BF16, 1.0 + 3.0 / 256) == 1.0 + 4.0 / 256); /* tie to even, up */
    CHECK(ptoc_float_round(PTOC_F16, 65504.0) == 65504.0);
    CHECK(isinf(ptoc_float_round(PTOC_F16, 65520.0)));                      /* rounds up past max */
    CHECK(ptoc_float_round(PTOC_F16, 65519.0) == 65504.0);
    CHECK(ptoc_float_round(PTOC_F16, ldexp(1, -24)) == ldexp(1, -24));      /* smallest subnormal */
    CHECK(ptoc_float_round(PTOC_F16, ldexp(1, -25)) == 0.0);                /* tie to even: 0 */
    CHECK(ptoc_float_round(PTOC_F16, ldexp(1.5, -25)) == ldexp(1, -24));
    CHECK(signbit(ptoc_float_round(PTOC_F16, -0.0)));
    CHECK(isnan(ptoc_float_round(PTOC_F16, NAN)));
    CHECK(isinf(ptoc_float_round(PTOC_F16, -INFINITY)) && ptoc_float_round(PTOC_F16, -INFINITY) < 0);
    CHECK(ptoc_float_round(PTOC_TF32, 0.1) == ptoc_float_round(PTOC_F16, 0.1) * 0 + 0.0999755859375);
    /* f8 */
    CHECK(ptoc_float_round(PTOC_F8E4M3FN, 448.0) == 448.0);
    CHECK(isnan(ptoc_float_round(PTOC_F8E4M3FN, 480.0)));   /* overflow: no inf */
    CHECK(ptoc_float_round(PTOC_F8E4M3FN, 464.0) == 448.0);   /* tie to even (mantissa 110) */
    CHECK(isnan(ptoc_float_round(PTOC_F8E4M3FN, INFINITY)));
    CHECK(ptoc_float_round(PTOC_F8E4M3FN, 0.3) == 0.3125);
    CHECK(ptoc_float_round(PTOC_F8E4M3FN, ldexp(1, -9)) == ldexp(1, -9));  /* min subnormal */
    CHECK(ptoc_float_round(PTOC_F8E4M3, 240.0) == 240.0);
    CHECK(isinf(ptoc_float_round(PTOC_F8E4M3, 256.0)));
    CHECK(ptoc_float_round(PTOC_F8E5M2, 57344.0) == 57344.0);
    CHECK(isinf(ptoc_float_round(PTOC_F8E5M2, 65536.0)));
    CHECK(ptoc_float_round(PTOC_F8E5M2, 1.1) == 1.0);
    CHECK(ptoc_float_round(PTOC_F8E4M3FNUZ, 240.0) == 240.0);
    CHECK(isnan(ptoc_float_round(PTOC_F8E4M3FNUZ, 256.0)));
    CHECK(!signbit(ptoc_float_round(PTOC_F8E4M3FNUZ, -0.0)));
    CHECK(ptoc_float_round(PTOC_F8E5M2FNUZ, 57344.0) == 57344.0);
    CHECK(ptoc_float_round(PTOC_F8E4M3B11FNUZ, 30.0) == 30.0);
    CHECK(isnan(ptoc_float_round(PTOC_F8E4M3B11FNUZ, 32.0)));
}

static void test_float_bits(void)
{
    int k;
    uint64_t b;
    CHECK(ptoc_float_to_bits(PTOC_F16, 1.0) == 0x3c00);
    CHECK(ptoc_float_to_bits(PTOC_F16, -2.0) == 0xc000);
    CHECK(ptoc_float_to_bits(PTOC_F16, INFINITY) == 0x7c00);
    CHECK(ptoc_float_to_bits(PTOC_BF16, 1.0) == 0x3f80);
    CHECK(ptoc_float_to_bits(PTOC_F32, 1.0) == 0x3f800000);
    CHECK(ptoc_float_to_bits(PTOC_F64, 1.0) == 0x3ff0000000000000ULL);
    CHECK(ptoc_float_to_bits(PTOC_F8E4M3FN, 448.0) == 0x7e);
    CHECK(ptoc_float_to_bits(PTOC_F8E4M3FN, NAN) == 0x7f);
    CHECK(ptoc_float_to_bits(PTOC_F8E5M2, 1.0) == 0x3c);
    CHECK(ptoc_float_to_bits(PTOC_F8E4M3FNUZ, NAN) == 0x80);
    CHECK(ptoc_float_to_bits(PTOC_F8E4M3FNUZ, 1.0) == 0x40);
    CHECK(ptoc_float_to_bits(PTOC_F8E5M2FNUZ, 1.0) == 0x40);
    CHECK(ptoc_float_to_bits(PTOC_F8E4M3B11FNUZ, 1.0) == 0x58);
    CHECK(isnan(ptoc_float_from_bits(PTOC_F8E4M3FNUZ, 0x80)));
    CHECK(ptoc_float_from_bits(PTOC_F8E4M3FN, 0x7e) == 448.0);
    CHECK(ptoc_float_from_bits(PTOC_F16, 0x0001) == ldexp(1, -24));
    /* Every non-NaN pattern of every 8- and 16-bit format round-trips. */
    for (k = 0; k < PTOC_FLOAT_KIND_COUNT; k++) {
        uint32_t w = ptoc_float_kind_width((ptoc_float_kind)k);
        int ok = 1;
        if (w > 16)
            continue;
        for (b = 0; b < (UINT64_C(1) << w); b++) {
            double v = ptoc_float_from_bits((ptoc_float_kind)k, b);
            if (isnan(v))
                continue;
            ok &= ptoc_float_to_bits((ptoc_float_kind)k, v) == b;
            ok &= ptoc_float_round((ptoc_float_kind)k, v) == v;
        }
        CHECK(ok);
    }
    CHECK(strcmp(ptoc_float_kind_name(PTOC_F8E4M3B11FNUZ), "f8E4M3B11FNUZ") == 0);
    CHECK(strcmp(ptoc_float_kind_name(PTOC_BF16), "bf16") == 0);
}

int main(void)
{
    ptoc_context *ctx = ptoc_context_create(NULL);
    test_idents(ctx);
    test_many_idents(ctx);
    test_types(ctx);
    test_attrs(ctx);
    test_float_rounding();
    test_float_bits();
    ptoc_context_set_option(ctx, "pto-arch", "a5");
    ptoc_context_set_option(ctx, "pto-arch", "a3");
    CHECK(strcmp(ptoc_context_option(ctx, "pto-arch"), "a3") == 0);
    CHECK(ptoc_context_option(ctx, "nope") == NULL);
    {   /* extensions: a layer's state by key; setting again replaces */
        static int a, b;
        CHECK(ptoc_context_extension(ctx, "x.state") == NULL);
        ptoc_context_set_extension(ctx, "x.state", &a);
        ptoc_context_set_extension(ctx, "y.state", &b);
        CHECK(ptoc_context_extension(ctx, "x.state") == &a);
        ptoc_context_set_extension(ctx, "x.state", &b);
        CHECK(ptoc_context_extension(ctx, "x.state") == &b);
    }
    ptoc_context_destroy(ctx);
    return CHECK_DONE();
}
