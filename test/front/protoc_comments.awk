# protoc_comments.awk: from protoc --decode=google.protobuf.FileDescriptorSet text of a set
# written with --include_source_info, one line per declaration location that has
# comments, in comment_dump's format (path L:.. T:.. D:..).
function flush() {
    if (path != "" && comments != "" && path ~ decl) print path comments
    path = ""; comments = ""
}
BEGIN {
    msg = "4\\.[0-9]+(\\.3\\.[0-9]+)*"
    decl = "^(" msg "(\\.2\\.[0-9]+|\\.8\\.[0-9]+|\\.6(\\.[0-9]+)?)?|(" msg "\\.4|5)\\.[0-9]+(\\.2\\.[0-9]+)?|6\\.[0-9]+(\\.2\\.[0-9]+)?|7(\\.[0-9]+)?)$"
}
/^ *location \{/ { flush(); inloc = 1; next }
inloc && /^ *path: / { path = path == "" ? $2 : path "." $2; next }
inloc && /^ *leading_comments: / { sub(/^ *leading_comments: /, ""); comments = comments " L:" $0; next }
inloc && /^ *trailing_comments: / { sub(/^ *trailing_comments: /, ""); comments = comments " T:" $0; next }
inloc && /^ *leading_detached_comments: / { sub(/^ *leading_detached_comments: /, ""); comments = comments " D:" $0; next }
END { flush() }
