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
}
