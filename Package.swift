// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierJSON", targets: ["CourierJSON"]),
        .library(name: "CourierCookies", targets: ["CourierCookies"]),
        .library(name: "CourierContract", targets: ["CourierContract"]),
        .library(name: "CourierContractModel", targets: ["CourierContractModel"]),
        .library(name: "CourierConfiguration", targets: ["CourierConfiguration"]),
        .library(name: "CourierEvents", targets: ["CourierEvents"]),
        .library(name: "CourierCache", targets: ["CourierCache"]),
        .library(name: "CourierInterceptors", targets: ["CourierInterceptors"]),
        .library(name: "CourierURLSession", targets: ["CourierURLSession"]),
        .library(name: "CourierCurl", targets: ["CourierCurl"]),
        .library(name: "CourierTransportKit", targets: ["CourierTransportKit"]),
        .library(name: "MockServer", targets: ["MockServer"]),
        .library(name: "MockServerContract", targets: ["MockServerContract"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "CourierOpenAPI", targets: ["CourierOpenAPI"]),
        .library(name: "MockServerOpenAPI", targets: ["MockServerOpenAPI"]),
        .library(name: "CourierPact", targets: ["CourierPact"]),
        .library(name: "MockServerPact", targets: ["MockServerPact"]),
        .library(name: "CourierTool", targets: ["CourierTool"]),
        .executable(name: "courier", targets: ["CourierCLI"]),
        // A target's API declarations from the OpenAPI document in its folder: at build time, or written
        // into the folder on request.
        .plugin(name: "CourierOpenAPIPlugin", targets: ["CourierOpenAPIPlugin"]),
        .plugin(name: "CourierOpenAPICommand", targets: ["CourierOpenAPICommand"]),
    ],
    targets: [
        // Small shared pieces (a lock box, a JSON value) that Courier and MockServer both import.
        .target(name: "CourierPrimitives", path: "Sources/CourierPrimitives"),
        // A JSON decoder with Foundation's values and errors, several times faster; the core's default.
        .target(name: "CourierJSON", path: "Sources/CourierJSON"),
        // A cookie jar by the rules of RFC 6265, in memory or in a file; the core keeps one per manager.
        .target(name: "CourierCookies", dependencies: ["CourierPrimitives"], path: "Sources/CourierCookies"),
        .target(
            name: "Courier", dependencies: ["CourierPrimitives", "CourierCookies", "CourierJSON"],
            path: "Sources/Courier"),
        // What tools read from a declared API, and a first program never imports: its operations, the
        // schemas of its models, validation and routing by them, and the OpenAPI document they write.
        .target(
            name: "CourierContractModel", dependencies: ["CourierPrimitives", "CourierSchema", "Courier"],
            path: "Sources/CourierContractModel"),
        // An API declared once (`API`, `Endpoint`, the classic `APIConfigurable`): typed calls and the
        // operations the tools read.
        .target(
            name: "CourierContract", dependencies: ["CourierPrimitives", "Courier", "CourierContractModel"],
            path: "Sources/CourierContract"),
        // Pact files (the Pact Specification, version 4; 3 and 2 read): the model, matching rules derived
        // from a declaration's schemas, a response matched by the rules, and files merged atomically.
        .target(
            name: "CourierPact",
            dependencies: ["CourierPrimitives", "Courier", "CourierContract", "CourierContractModel"],
            path: "Sources/CourierPact"),
        // Settings from courier.json (`Configuration`), and a manager made from them.
        .target(
            name: "CourierConfiguration",
            dependencies: [
                "Courier", "CourierCookies", "CourierInterceptors", "CourierJSON", "CourierPrimitives",
            ],
            path: "Sources/CourierConfiguration"),
        // Server-sent events (`NetworkManager.events`), read by the EventSource rules, with reconnection.
        .target(name: "CourierEvents", dependencies: ["Courier"], path: "Sources/CourierEvents"),
        // A private HTTP cache (RFC 9111) on disk, used as an interceptor.
        .target(name: "CourierCache", dependencies: ["Courier"], path: "Sources/CourierCache"),
        // The stock interceptors: retries with backoff, and bearer tokens with one shared refresh.
        .target(name: "CourierInterceptors", dependencies: ["Courier"], path: "Sources/CourierInterceptors"),
        // The transport on Foundation's URLSession.
        .target(
            name: "CourierURLSession", dependencies: ["CourierPrimitives", "Courier"],
            path: "Sources/CourierURLSession"),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Sources/CCurlShim"),
        // JSON Schema on `JSONValue`: validation and value generation, one engine for an OpenAPI document's
        // schemas and a declared API's (through the JSON Schema its declaration writes). No system library.
        .target(name: "CourierSchema", dependencies: ["CourierPrimitives"], path: "Sources/CourierSchema"),
        // OpenAPI documents read (JSON or YAML, by a YAML reader of its own: no system library),
        // `$ref`s resolved, structure checked; their schemas validated and example values generated.
        .target(
            name: "CourierOpenAPI", dependencies: ["CourierPrimitives", "CourierSchema"],
            path: "Sources/CourierOpenAPI"),
        // The plugins' generator: a document and courier-openapi.json in, one Swift file of declarations out.
        .executableTarget(
            name: "CourierOpenAPIGenerator", dependencies: ["CourierOpenAPI"],
            path: "Sources/CourierOpenAPIGenerator"),
        .plugin(
            name: "CourierOpenAPIPlugin", capability: .buildTool(), dependencies: ["CourierOpenAPIGenerator"],
            path: "Plugins/CourierOpenAPIPlugin"),
        .plugin(
            name: "CourierOpenAPICommand",
            capability: .command(
                intent: .custom(
                    verb: "generate-courier-openapi",
                    description: "write the declarations of each target's OpenAPI document into its folder"),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "writes <Target>+OpenAPI.swift beside the target's document")
                ]),
            dependencies: ["CourierOpenAPIGenerator"],
            path: "Plugins/CourierOpenAPICommand"),
        .target(
            name: "CourierCurl",
            dependencies: ["Courier", "CCurlShim"],
            path: "Sources/CourierCurl"),
        // What only a transport written outside the package needs (a streamed body's producer), and a
        // first program never imports.
        .target(name: "CourierTransportKit", dependencies: ["Courier"], path: "Sources/CourierTransportKit"),
        // The demo's social API (declarations, models, services): for the `courier` tool and the package's
        // own tests, not a product.
        .target(
            name: "Endpoints",
            dependencies: [
                "Courier", "CourierCache", "CourierContract", "CourierContractModel", "CourierInterceptors",
            ],
            path: "Endpoints"),
        // The mock server: HTTP/1.1 on plain sockets, WireMock-format stubs, the admin API and chaos.
        .target(
            name: "MockServer", dependencies: ["CourierPrimitives"], path: "MockServer",
            exclude: ["Contract", "Social", "OpenAPI", "Pact"]),
        // A consumer's exchanges with the mock server recorded as a pact file (`withPactMockServer`).
        .target(
            name: "MockServerPact",
            dependencies: [
                "MockServer", "Courier", "CourierContract", "CourierContractModel", "CourierPact",
                "CourierPrimitives",
            ],
            path: "MockServer/Pact"),
        // A declared API served and checked by the mock server from its own OpenAPI document, by the code that
        // serves any document (routing, request validation, examples), with responders of its own.
        .target(
            name: "MockServerContract",
            dependencies: [
                "MockServer", "Courier", "CourierContract", "CourierContractModel", "CourierOpenAPI",
                "CourierPrimitives", "MockServerOpenAPI",
            ],
            path: "MockServer/Contract"),
        // An OpenAPI document served by the mock server: routing, request validation, security, examples.
        .target(
            name: "MockServerOpenAPI",
            dependencies: ["MockServer", "CourierOpenAPI", "CourierPrimitives"],
            path: "MockServer/OpenAPI"),
        // The demo's stateful social backend, a handler for the mock server.
        .target(
            name: "SocialBackend",
            dependencies: [
                "MockServer", "MockServerContract", "Courier", "CourierContract", "CourierContractModel",
                "CourierPrimitives",
                "Endpoints",
            ],
            path: "MockServer/Social"),
        // A command-line tool for any declared API: openapi, mock, call and verify (both transports).
        .target(
            name: "CourierTool",
            dependencies: [
                "Courier", "CourierConfiguration", "CourierContract", "CourierContractModel",
                "CourierCookies", "CourierCurl",
                "CourierJSON", "CourierOpenAPI", "CourierPrimitives", "CourierURLSession", "MockServer",
                "MockServerContract", "MockServerOpenAPI", "CourierPact", "MockServerPact",
            ],
            path: "Sources/CourierTool"),
        // `courier`: the tool over the social API, with the demo's commands (demo, send, bench).
        .executableTarget(
            name: "CourierCLI",
            dependencies: [
                "Courier", "CourierConfiguration", "CourierContract", "CourierContractModel",
                "CourierCookies", "CourierCurl", "CourierInterceptors",
                "CourierJSON", "CourierPrimitives", "CourierTool", "CourierURLSession", "Endpoints",
                "MockServer",
                "MockServerContract", "SocialBackend",
            ],
            path: "Sources/CourierCLI"
        ),
        // The scoped mock server, StubTransport and the transport conformance suite for any transport, for
        // users' tests and ours: no libcurl, no demo.
        .target(
            name: "CourierTesting",
            dependencies: [
                "Courier", "CourierCache", "CourierContract", "CourierContractModel", "CourierCookies",
                "CourierEvents",
                "CourierPrimitives",
                "MockServer", "MockServerContract", "MockServerOpenAPI",
            ],
            path: "Sources/CourierTesting"),
        .executableTarget(name: "courier-curl-bench", dependencies: ["CCurl"], path: "Sources/CCurlBench"),
        // Helpers shared by the test targets (starting other programs); not part of any product.
        .target(
            name: "TestSupport",
            dependencies: [
                "CourierPrimitives", "CourierTesting", "CourierCurl", "CourierURLSession", "MockServer",
            ],
            path: "Tests/Support"),
        .testTarget(
            name: "CourierPrimitivesTests", dependencies: ["CourierPrimitives"],
            path: "Tests/CourierPrimitivesTests"),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier", "CourierConfiguration", "CourierContract", "CourierContractModel",
                "CourierCookies", "CourierInterceptors",
                "CourierJSON", "CourierTesting", "CourierURLSession", "TestSupport",
            ],
            path: "Tests/CourierTests"
        ),
        .testTarget(
            name: "CourierTestingTests",
            dependencies: [
                "CourierTesting", "Courier", "CourierContract", "CourierContractModel", "CourierURLSession",
                "TestSupport",
            ],
            path: "Tests/CourierTestingTests", exclude: ["Fixtures"]),
        .testTarget(
            name: "CourierInterceptorsTests",
            dependencies: [
                "Courier", "CourierContract", "CourierContractModel", "CourierInterceptors",
                "CourierPrimitives", "CourierTesting", "CourierTransportKit",
                "TestSupport",
            ],
            path: "Tests/CourierInterceptorsTests"),
        .testTarget(
            name: "CourierTransportKitTests", dependencies: ["Courier", "CourierTransportKit"],
            path: "Tests/CourierTransportKitTests"),
        .testTarget(
            name: "CourierConfigurationTests",
            dependencies: [
                "CourierConfiguration", "Courier", "CourierCurl", "CourierInterceptors", "CourierTesting",
                "CourierURLSession", "TestSupport",
            ],
            path: "Tests/CourierConfigurationTests", exclude: ["Fixtures"]),
        .testTarget(
            name: "CourierCookiesTests", dependencies: ["Courier", "CourierCookies"],
            path: "Tests/CourierCookiesTests"),
        .testTarget(
            name: "CourierURLSessionTests",
            dependencies: [
                "Courier", "CourierContract", "CourierContractModel", "CourierPrimitives", "CourierTesting",
                "CourierURLSession",
                "TestSupport",
            ],
            path: "Tests/CourierURLSessionTests"),
        .testTarget(
            name: "CourierJSONTests", dependencies: ["Courier", "CourierJSON"],
            path: "Tests/CourierJSONTests"),
        .testTarget(
            name: "CourierEventsTests", dependencies: ["Courier", "CourierEvents"],
            path: "Tests/CourierEventsTests"),
        .testTarget(
            name: "CourierCacheTests", dependencies: ["Courier", "CourierCache", "CourierPrimitives"],
            path: "Tests/CourierCacheTests"),
        .testTarget(
            name: "CourierPactTests",
            dependencies: [
                "CourierPact", "Courier", "CourierContract", "CourierContractModel", "CourierPrimitives",
                "CourierTesting",
                "MockServerPact",
                "TestSupport",
            ],
            path: "Tests/CourierPactTests", exclude: ["Fixtures"]),
        .testTarget(
            name: "MockServerPactTests",
            dependencies: [
                "MockServerPact", "CourierPact", "Courier", "CourierContract", "CourierContractModel",
                "CourierPrimitives",
                "CourierTesting",
                "TestSupport",
            ],
            path: "Tests/MockServerPactTests"),
        .testTarget(
            name: "CourierContractTests",
            dependencies: [
                "Courier", "CourierContract", "CourierContractModel", "CourierTesting", "TestSupport",
            ],
            path: "Tests/CourierContractTests"),
        .testTarget(
            name: "CourierCurlTests",
            dependencies: [
                "CourierCurl", "CourierConfiguration", "CourierInterceptors", "CourierPrimitives",
                "CourierTesting",
                "CourierURLSession", "MockServer", "TestSupport",
            ],
            path: "Tests/CourierCurlTests"),
        .testTarget(
            name: "TransportConformanceTests",
            dependencies: [
                "Courier", "CourierCache", "CourierConfiguration", "CourierContract", "CourierContractModel",
                "CourierCookies",
                "CourierCurl", "CourierEvents", "CourierInterceptors", "CourierJSON", "CourierPrimitives",
                "CourierTesting",
                "CourierURLSession", "MockServer", "TestSupport",
            ],
            path: "Tests/TransportConformanceTests",
            exclude: ["Support/make-cert.sh", "Support/nginx-tls.conf", "Support/measure-1gib.sh"]),
        .testTarget(
            name: "MockServerTests",
            dependencies: [
                "MockServer", "Courier", "CourierCurl", "CourierPrimitives", "CourierTesting",
                "CourierURLSession",
                "TestSupport",
            ],
            path: "Tests/MockServerTests", exclude: ["Fixtures"]),
        .testTarget(
            name: "MockServerContractTests",
            dependencies: [
                "MockServerContract", "Courier", "CourierContract", "CourierContractModel", "CourierCurl",
                "CourierPrimitives",
                "CourierURLSession", "MockServer", "TestSupport",
                // The parity test serves every API in the package by its declaration and by its document.
                "CourierOpenAPI", "Endpoints", "MockServerOpenAPI",
            ],
            path: "Tests/MockServerContractTests", exclude: ["Fixtures"]),
        .testTarget(
            name: "CourierOpenAPITests",
            dependencies: ["CourierOpenAPI", "CourierPrimitives", "Endpoints", "TestSupport"],
            path: "Tests/CourierOpenAPITests"),
        .testTarget(
            name: "MockServerOpenAPITests",
            dependencies: [
                "MockServerOpenAPI", "Courier", "CourierCurl", "CourierOpenAPI", "CourierPrimitives",
                "CourierTesting", "MockServer",
            ],
            path: "Tests/MockServerOpenAPITests"),
        .testTarget(
            name: "EndpointsTests",
            dependencies: [
                "Endpoints", "Courier", "CourierContract", "CourierContractModel", "CourierCurl",
                "CourierInterceptors",
                "CourierTesting", "CourierTool", "CourierURLSession", "MockServer", "MockServerContract",
                "TestSupport", "SocialBackend",
            ],
            path: "Tests/EndpointsTests"),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "Courier", "CourierContract", "CourierContractModel", "CourierCurl", "CourierInterceptors",
                "CourierTesting",
                "Endpoints", "MockServer", "TestSupport",
                "SocialBackend",
            ],
            path: "Tests/ReliabilityTests"),
        // The README's examples, compiled and run as a user's code would be.
        .testTarget(
            name: "ReadmeExamplesTests",
            dependencies: [
                "Courier", "CourierCache", "CourierContract", "CourierContractModel", "CourierCookies",
                "CourierCurl",
                "CourierEvents",
                "CourierInterceptors", "CourierJSON", "CourierOpenAPI", "CourierPrimitives", "CourierTesting",
                "CourierURLSession",
                "MockServer", "TestSupport",
            ],
            path: "Tests/ReadmeExamplesTests"),
        .testTarget(
            name: "CourierCLITests",
            dependencies: [
                "CourierCLI", "CourierTool", "CourierCache", "CourierConfiguration", "CourierContract",
                "CourierContractModel",
                "CourierCookies",
                "CourierEvents", "CourierInterceptors", "CourierJSON", "CourierTesting", "CourierURLSession",
                "MockServer", "TestSupport",
            ],
            path: "Tests/CourierCLITests"),
        // A user's tool in a few lines: the README's notes API (a link to the one file that declares it).
        .executableTarget(
            name: "notes-tool",
            dependencies: ["CourierTool", "Courier", "CourierContract", "CourierContractModel"],
            path: "Tests/NotesTool"),
        .testTarget(
            name: "CourierToolTests",
            dependencies: [
                "notes-tool", "CourierTool", "Courier", "CourierContract", "CourierContractModel",
                "CourierCurl", "CourierOpenAPI",
                "CourierPact", "CourierTesting", "MockServer", "MockServerContract", "TestSupport",
            ],
            path: "Tests/CourierToolTests"),
    ],
    swiftLanguageModes: [.v6]
)
