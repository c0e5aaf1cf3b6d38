import CourierURLSession
import Testing

/// FoundationNetworking joins repeated `Set-Cookie` fields with ", ": they are separated again
/// where a new `name=` begins, never inside an `Expires` date.
@Suite struct SetCookieFieldsTests {
    @Test(arguments: [
        ("sid=abc; Path=/", ["sid=abc; Path=/"]),
        ("a=1, b=2", ["a=1", "b=2"]),
        (
            "a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/, b=2; Max-Age=0",
            ["a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/", "b=2; Max-Age=0"]
        ),
        ("a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT", ["a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT"]),
        ("a=1; HttpOnly, b=2; Secure", ["a=1; HttpOnly", "b=2; Secure"]),
        ("a=\"x, y\", c=3", ["a=\"x, y\"", "c=3"]),
        ("a=1,, b=2", ["a=1", "b=2"]),
        ("", []),
    ])
    func mergedFieldsAreSeparated(merged: String, fields: [String]) {
        #expect(SetCookieFields.split(merged) == fields)
    }

    /// A value with many commas and no `=` after them is one field. Each comma used to scan the rest of
    /// the value for `=`: 50,000 commas were billions of steps on the delegate queue.
    @Test func manyCommasWithoutANameAreOneField() {
        let value = "a=b" + String(repeating: ",x", count: 50_000)
        #expect(SetCookieFields.split(value) == [value])
        #expect(SetCookieFields.split(value + ", c=d") == [value, "c=d"])
    }
}
