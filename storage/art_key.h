// Binary-comparable keys for the Adaptive Radix Tree (Leis et al., ICDE 2013, §IV): each value
// becomes bytes whose unsigned lexicographic order (memcmp, then length) is the SQL order of
// the values, and equal values become equal bytes. A composite key is the concatenation of its
// parts; every part is prefix-free (fixed width, or a string with an escaped terminator), so
// the concatenation orders by the first part, then the second, and so on.
#pragma once

#include <string>

#include "storage/types.h"

namespace floe {

class Value;

// Appends the encoding of one non-null value of `type`, given in its PhysicalType:
//  - integers, dates, timestamps and decimals (the scaled integer, the column's scale fixed):
//    big endian with the sign bit flipped;
//  - double in PostgreSQL's order: -0 = 0, NaN after +Infinity, all NaNs equal;
//  - interval as PostgreSQL compares it: months as 30 days, days as 24 hours;
//  - boolean: one byte, false < true;
//  - char/varchar/text (bytewise, the "C" collation): the bytes with 0x00 escaped as
//    0x00 0xFF, then the terminator 0x00 0x00, so that "ab" < "ab\0" < "abc".
void append_key_part(std::string& key, const SqlType& type, const void* physical);
// The same for a Value, which must not be NULL and must have type `type`.
void append_key_part(std::string& key, const SqlType& type, const Value& value);

}  // namespace floe
