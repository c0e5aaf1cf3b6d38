import CourierPrimitives
import Testing

/// The string formats that schemas declare (OpenAPI's and JSON Schema's), each with texts that are
/// and are not of it.
struct StringFormatsTests {
    @Test(arguments: [
        ("date-time", "2024-02-29T23:59:60.123Z"), ("date-time", "1985-04-12t23:20:50.52z"),
        ("date-time", "1996-12-19T16:39:57-08:00"), ("date", "2024-02-29"), ("date", "2000-02-29"),
        ("time", "08:00:00+02:00"), ("uuid", "123e4567-E89B-12d3-a456-426614174000"),
        ("email", "ada@example.com"), ("email", "first.last+tag@sub.example.org"),
        ("uri", "https://example.com/a?b=c#d"), ("uri", "urn:isbn:0451450523"), ("uri-reference", "../a/b"),
        ("ipv4", "192.168.0.1"), ("ipv4", "0.0.0.0"), ("ipv6", "::1"), ("ipv6", "2001:db8::8a2e:370:7334"),
        ("byte", "U3dpZnQ="), ("byte", ""),
    ])
    func accepts(_ format: String, _ text: String) {
        #expect(StringFormats.check(format, text) == true, "\(text.debugDescription) is a \(format)")
    }

    @Test(arguments: [
        ("date-time", "2024-02-29 23:59:60Z"), ("date-time", "2024-02-29T24:00:00Z"),
        ("date-time", "2024-02-29T10:00:00"), ("date-time", "2024-02-29T10:00:00.Z"),
        ("date", "2023-02-29"), ("date", "1900-02-29"), ("date", "2024-13-01"), ("date", "2024-4-01"),
        ("date", "2024-04-31"), ("time", "08:00"), ("time", "08:60:00Z"), ("time", "08:00:00+2:00"),
        ("uuid", "123e4567e89b12d3a456426614174000"), ("uuid", "123e4567-e89b-12d3-a456-42661417400g"),
        ("email", "ada"), ("email", "a@b"), ("email", "a b@example.com"), ("email", "a@-example.com"),
        ("email", "a@@example.com"), ("uri", "/relative/path"), ("uri", "1http://x"), ("uri", "http://a b"),
        ("uri-reference", "a b"), ("ipv4", "256.0.0.1"), ("ipv4", "01.2.3.4"), ("ipv4", "1.2.3"),
        ("ipv6", "1:2:3:4:5:6:7:8:9"), ("ipv6", "::g"), ("byte", "U3dpZnQ"), ("byte", "****"),
    ])
    func refuses(_ format: String, _ text: String) {
        #expect(StringFormats.check(format, text) == false, "\(text.debugDescription) is no \(format)")
    }

    @Test(arguments: ["password", "binary", "int64", "x-vendor"])
    func annotationsAreNotChecked(_ format: String) {
        #expect(StringFormats.check(format, "anything at all") == nil)
    }
}
