import CourierPrimitives
import Foundation
import Testing

@testable import CourierOpenAPI

/// Every fixture document loads, with the version and operations it declares.
@Suite struct FixtureDocumentTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI")

    @Test(
        "fixtures load",
        arguments: [
            ("petstore-3.0.yaml", OpenAPIDocument.Version.v3_0, 3),
            ("petstore-3.1.yaml", .v3_1, 6),
            ("swagger-petstore-3.0.yaml", .v3_0, 19),
            ("uspto.yaml", .v3_0, 3),
            ("api-with-examples.yaml", .v3_0, 2),
        ])
    func loads(file: String, version: OpenAPIDocument.Version, operations: Int) throws {
        let document = try OpenAPIDocument.load(from: Self.folder.appendingPathComponent(file))
        #expect(document.version == version)
        #expect(document.operations.count == operations)
    }
}
