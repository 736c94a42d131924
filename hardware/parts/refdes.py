"""Reference designators ("R2", "LED10") in their natural order: R2 before R10."""


def natural_order(ref):
    head = ref.rstrip("0123456789")
    return (head, int(ref[len(head):] or 0))
