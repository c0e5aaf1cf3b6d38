import Courier
import Testing

@testable import CourierCurl

/// A body is decoded only when every coding of its head can be; otherwise it comes as it is.
@Suite struct ContentDecodingTests {
    static let decodable: Set<String> = ["identity", "none", "gzip", "x-gzip", "deflate", "br"]

    @Test(arguments: [
        ([], true),
        ([("Content-Encoding", "gzip")], true),
        ([("Content-Encoding", "GZip")], true),
        ([("Content-Encoding", "gzip, br")], true),
        ([("Content-Encoding", "none")], true),
        ([("Content-Encoding", "")], true),
        ([("Transfer-Encoding", "gzip, chunked")], true),
        ([("Content-Encoding", "utf-8")], false),
        ([("Content-Encoding", "gzip, foo")], false),
        ([("Content-Encoding", "gzip"), ("Content-Encoding", "foo")], false),
        ([("Content-Encoding", "zstd")], false),  // not in this libcurl's list
        ([("Transfer-Encoding", "foo, chunked")], false),
    ])
    func decodedOnlyWhenEveryCodingCanBe(fields: [(String, String)], decoded: Bool) {
        #expect(ContentDecoding.canDecode(HTTPHeaders(fields), decodable: Self.decodable) == decoded)
    }

    @Test func thisLibcurlDecodesGzip() {
        #expect(ContentDecoding.decodable.isSuperset(of: ["identity", "none", "gzip", "deflate"]))
    }
}
