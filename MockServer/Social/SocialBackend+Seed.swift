import Courier
import Endpoints
import Foundation
import MockServer

extension SocialBackend {
    /// The seeded users' password: user N signs in as `userN@example.com` with it.
    public static let seedPassword = "password1"
    /// User 1's refresh token in the sample data (the value `OnboardingEndPoint`'s refresh sample
    /// sends, so that the samples work against a server with sample data).
    public static let seedRefreshToken = "r-sample"
    /// How many users `seedData` creates.
    public static let seedUserCount = 5

    static let seedNames = [
        "Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov",
    ]
    static let seedEpoch = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// Adds deterministic sample data: 5 users (`user1@example.com` … with password
    /// `password1`, user 1 with the refresh token `r-sample`), `count` posts with small sample videos and page numbers 1…count, and
    /// `count` tweets, spread over the users, one minute apart.
    /// - Throws: when a sample video cannot be written.
    public func seedData(count: Int) throws {
        let videoBytes = Data((0..<(32 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        var files: [(name: String, url: URL)] = []
        for index in 1...max(1, count) where count > 0 {
            // `seed-001.mp4` is the name `UploadEndPoint.videoURL`'s sample asks for.
            let name = String(format: "seed-%03d.mp4", index)
            let url = storageDirectory.appendingPathComponent("videos/\(name)")
            try videoBytes.write(to: url)
            files.append((name, url))
        }
        state.withLock { state in
            var userIds: [String] = []
            for (offset, name) in Self.seedNames.enumerated() {
                let email = "user\(offset + 1)@example.com"
                if let existing = state.emailIndex[email] {
                    userIds.append(existing)
                    continue
                }
                let id = String(format: "u-%06d", state.nextNumber())
                state.users[id] = SocialState.UserRecord(
                    id: id, name: name, email: email, password: Self.seedPassword,
                    createdAt: Self.seedEpoch.addingTimeInterval(Double(offset)))
                state.userOrder.append(id)
                state.emailIndex[email] = id
                userIds.append(id)
            }
            state.refreshTokens[Self.seedRefreshToken] = userIds[0]
            let firstPage = state.maxPageNumber
            for (offset, file) in files.enumerated() {
                let author = userIds[offset % userIds.count]
                let seq = state.nextNumber()
                let when = Self.seedEpoch.addingTimeInterval(Double(60 * (offset + 1)))
                state.videos[file.name] = SocialState.VideoRecord(
                    owner: author, file: file.url, size: Int64(videoBytes.count),
                    etag: "\"seed-\(offset + 1)\"")
                let post = Post(
                    id: String(format: "p-%06d", seq), authorId: author,
                    authorName: state.users[author]?.name ?? "", video: file.name, videoURL: nil,
                    description: "Sample video \(offset + 1)", likes: (offset * 7) % 13,
                    comments: (offset * 3) % 5,
                    pageNumber: firstPage + offset + 1, createdAt: when)
                state.insert(post, seq: seq)
                state.tweets.append(
                    Tweet(
                        id: String(format: "t-%06d", state.nextNumber()), uid: author,
                        caption: "Sample tweet \(offset + 1)", likes: offset % 4, timestamp: when))
            }
        }
    }
}
