import CourierURLSession
import Testing

/// FoundationNetworking joins repeated `Set-Cookie` fields with ", ": they are separated again
/// at every ", " that can be a join, never inside a quoted value or an `Expires` date.
@Suite struct SetCookieFieldsTests {
    @Test(arguments: [
        ("sid=abc; Path=/", ["sid=abc; Path=/"]),
        ("a=1, b=2", ["a=1", "b=2"]),
        (
            "a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/, b=2; Max-Age=0",
            ["a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/", "b=2; Max-Age=0"]
        ),
        ("a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT", ["a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT"]),
        (
            "a=1; expires=Wednesday, 21-Oct-99 07:28:00 GMT",
            ["a=1; expires=Wednesday, 21-Oct-99 07:28:00 GMT"]
        ),
        (
            "a=1; Expires=Fri 07 Aug 2019 08:04:19 GMT, b=2",
            ["a=1; Expires=Fri 07 Aug 2019 08:04:19 GMT", "b=2"]
        ),
        ("a=1; HttpOnly, b=2; Secure", ["a=1; HttpOnly", "b=2; Secure"]),
        // A quoted value is never split.
        ("a=\"x, y\", c=3", ["a=\"x, y\"", "c=3"]),
        ("foo=\"bar, baz=qux\"", ["foo=\"bar, baz=qux\""]),
        // A quote that does not end its value quotes nothing.
        ("a=\"x, a=\"x", ["a=\"x", "a=\"x"]),
        // A comma without the space of a join is part of its field.
        ("foo=bar; b,az=qux", ["foo=bar; b,az=qux"]),
        ("a=1,b=2", ["a=1,b=2"]),
        // Fields that are no cookie (an empty name, no `=`) stay apart from their neighbours.
        ("a=b, =, c=d", ["a=b", "=", "c=d"]),
        ("a=b, =x, c=d", ["a=b", "=x", "c=d"]),
        ("foo, =", ["foo", "="]),
        ("six, seven, =eight, test=six", ["six", "seven", "=eight", "test=six"]),
        ("\"a=b\"=bar, \"a=qux", ["\"a=b\"=bar", "\"a=qux"]),
        // An empty field leaves nothing.
        ("a=1, , b=2", ["a=1", "b=2"]),
        ("foo, ", ["foo"]),
        ("", []),
    ])
    func mergedFieldsAreSeparated(merged: String, fields: [String]) {
        #expect(SetCookieFields.split(merged) == fields)
    }

    /// A value with many commas is split in one pass: each comma used to scan the rest of the
    /// value, 50,000 commas were billions of steps on the delegate queue.
    @Test func manyCommasAreOnePass() {
        let value = "a=b" + String(repeating: ",x", count: 50_000)
        #expect(SetCookieFields.split(value) == [value])
        #expect(SetCookieFields.split(value + ", c=d") == [value, "c=d"])
        let quoted = "a=\"" + String(repeating: ", x", count: 50_000)
        #expect(SetCookieFields.split(quoted).count == 50_001, "an unclosed quote quotes nothing")
    }
}
