import Courier
import CourierTool
import Endpoints
import Foundation

/// Writes what both benchmark servers serve: WireMock mappings for the mock server, and the
/// same files under `mappings/__files` as nginx's document root.
enum BenchFixtures {
    static func write(to directory: URL, bigMiB: Int) throws {
        guard bigMiB > 0 else { throw UsageError("--big-mib must be positive") }
        let files = directory.appendingPathComponent("mappings/__files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try smallBody().write(to: files.appendingPathComponent("small.json"))
        try postsPage().write(to: files.appendingPathComponent("posts.json"))

        // A sparse file: the benchmark measures transfer and memory, not disk reads.
        let big = files.appendingPathComponent("big.bin")
        guard FileManager.default.createFile(atPath: big.path, contents: nil) else {
            throw UsageError("cannot create \(big.path)")
        }
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(bigMiB) << 20)
        try handle.close()

        let mappings: [[String: Any]] = [
            stub(path: "/small.json", file: "small.json"),
            stub(path: "/posts.json", file: "posts.json"),
            ["request": ["method": "POST", "urlPath": "/upload"], "response": ["status": 201]],
        ]
        for (index, mapping) in mappings.enumerated() {
            let data = try JSONSerialization.data(withJSONObject: mapping, options: [.sortedKeys])
            try data.write(to: directory.appendingPathComponent("mappings/\(index)-bench.json"))
        }
    }

    /// The ~1 KiB JSON body of the small-request workloads.
    static func smallBody() throws -> Data { try JSONEncoder.courier.encode(SmallPayload.sample) }

    /// The page of 500 posts of the decode workload.
    static func postsPage() throws -> Data {
        let epoch = Date(timeIntervalSince1970: 1_700_000_000)
        let posts = (0..<500).map { index in
            Post(
                id: "post-\(index)", authorId: "user-\(index % 37)", authorName: "Author \(index % 37)",
                video: "video_\(index).mp4",
                videoURL: URL(string: "http://127.0.0.1/storage/Videos/video_\(index).mp4"),
                description: "Benchmark post \(index) with a caption long enough to look real.",
                likes: index * 3, comments: index % 11, pageNumber: index / 5 + 1,
                createdAt: epoch.addingTimeInterval(Double(index) * 60))
        }
        return try JSONEncoder.courier.encode(posts)
    }

    private static func stub(path: String, file: String) -> [String: Any] {
        [
            "request": ["method": "GET", "urlPath": path],
            "response": [
                "status": 200, "bodyFileName": file, "headers": ["Content-Type": "application/json"],
            ],
        ]
    }
}
