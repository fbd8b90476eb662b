import type { AdminUser } from "@hearth/contract";
import { Search, Users } from "lucide-react";
import { useState } from "react";
import { EditUserDialog } from "../../features/admin-users/edit-user-dialog.tsx";
import { useAdminUsers } from "../../features/admin-users/use-admin-users.ts";
import { UserList } from "../../features/admin-users/user-list.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Input } from "../../ui/input.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner, Spinner } from "../../ui/spinner.tsx";

/** Operator page: find accounts and change their plan, status, restriction and admin flag. */
export default function AdminUsersScreen() {
  const me = useMe();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), 300);
  const users = useAdminUsers(search);
  const [editing, setEditing] = useState<AdminUser | null>(null);

  const list = users.data?.pages.flatMap((page) => page.users) ?? [];
  const searching = users.isFetching && !users.isFetchingNextPage;

  return (
    <Page>
      <PageHeader title="Users" description="Everyone with an account or a guest session on this server." />

      <div className="relative mb-5 max-w-md">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
        />
        <Input
          type="search"
          aria-label="Search users"
          placeholder="Search by name, username or email"
          className="pl-9"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
        {searching && users.data ? (
          <Spinner
            size="sm"
            label="Searching"
            className="absolute top-1/2 right-3 -translate-y-1/2 text-muted"
          />
        ) : null}
      </div>

      {users.isPending ? (
        <PageSpinner label="Loading users" />
      ) : users.isError && !users.data ? (
        <Banner
          tone="danger"
          title="Couldn't load users"
          action={
            <Button size="sm" variant="outline" onClick={() => users.refetch()}>
              Try again
            </Button>
          }
        >
          {errorMessage(users.error)}
        </Banner>
      ) : list.length === 0 ? (
        <EmptyState icon={Users} title={search ? "No users match" : "No users yet"}>
          {search ? `Nobody's name, username or email contains "${search}".` : "Accounts will appear here."}
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-4">
          <UserList users={list} onEdit={setEditing} />
          {users.hasNextPage ? (
            <Button
              variant="outline"
              className="self-center"
              loading={users.isFetchingNextPage}
              onClick={() => users.fetchNextPage()}
            >
              Load more
            </Button>
          ) : null}
        </div>
      )}

      <Dialog open={editing !== null} onOpenChange={(open) => (open ? null : setEditing(null))}>
        {editing ? (
          <EditUserDialog
            key={editing.id}
            user={editing}
            currentUserId={me?.id}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
    </Page>
  );
}
