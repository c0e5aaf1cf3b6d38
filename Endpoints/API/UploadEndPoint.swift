import Courier
import Foundation

/// Storage and publishing (seed 000): store a video, get its download URL, publish a
/// post's metadata, upload a profile image.
public enum UploadEndPoint: ContractEndpoint {
    /// Store the file at `file` as `Videos/{name}`, streamed from disk; returns `StoredVideo`.
    case video(name: String, file: URL)
    /// A stored video's download URL; returns `VideoLink`.
    case videoURL(name: String)
    /// Publish a post for a stored video. Repeating `idempotencyKey` returns the first
    /// result instead of saving again. Returns `Post`.
    case publish(post: NewPost, idempotencyKey: String)
    /// Upload the signed-in user's profile image (JPEG or PNG, up to 8 MiB); returns `User`.
    case profileImage(file: URL)

    public var operationID: String {
        switch self {
        case .video: "upload.video"
        case .videoURL: "upload.videoURL"
        case .publish: "upload.publish"
        case .profileImage: "upload.profileImage"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .video, .profileImage: .put
        case .videoURL: .get
        case .publish: .post
        }
    }

    public var path: String {
        switch self {
        case .video(let name, _): "/videos/\(segment: name)"
        case .videoURL(let name): "/videos/\(segment: name)/url"
        case .publish: "/posts"
        case .profileImage: "/me/avatar"
        }
    }

    public var parameters: any ParameterConvertible {
        switch self {
        case .video(_, let file):
            FileBody(file, contentType: "video/mp4")
        case .videoURL:
            NoParameters()
        case .publish(let post, _):
            JSONBody(post)
        case .profileImage(let file):
            MultipartForm(parts: [
                .init(
                    name: "image", filename: file.lastPathComponent,
                    contentType: file.pathExtension.lowercased() == "png" ? "image/png" : "image/jpeg",
                    content: .file(file))
            ])
        }
    }

    public var headers: HTTPHeaders {
        switch self {
        case .publish(_, let key): ["Idempotency-Key": key]
        default: HTTPHeaders()
        }
    }

    /// Uploads can take a while; the rest use the manager's timeout.
    public var timeout: TimeInterval? {
        switch self {
        case .video, .profileImage: 600
        default: nil
        }
    }

    public static var samples: [UploadEndPoint] {
        let file = URL(fileURLWithPath: #filePath)
        let link = URL(string: "http://127.0.0.1/storage/videos/clip.mp4")!  // allowed: a valid literal
        return [
            .video(name: "clip.mp4", file: file), .videoURL(name: "clip.mp4"),
            .publish(
                post: NewPost(
                    video: "clip.mp4", videoURL: link,
                    description: "Sample"),
                idempotencyKey: "key-1"),
            .profileImage(file: file),
        ]
    }
}
