import Testing

@testable import Courier

/// `Content-Range` values as a resumed download reads them.
struct ContentRangeTests {
    @Test(arguments: [
        ("bytes 100-199/200", ContentRange(bytes: 100...199, length: 200)),
        ("bytes 0-0/*", ContentRange(bytes: 0...0, length: nil)),
        ("  bytes 5-9/10 ", ContentRange(bytes: 5...9, length: 10)),
        ("bytes */200", nil), ("bytes 9-5/10", nil), ("bytes 5-10/10", nil), ("items 0-1/2", nil),
        ("bytes 1-2", nil), ("", nil),
    ])
    func parses(header: String, expected: ContentRange?) {
        #expect(ContentRange(header) == expected)
    }
}
