import { useState } from "react";
import { showToast } from "#src/stores/toasts.ts";
import { logout, LOGIN_PATH } from "./api";
import { apiErrorText } from "./api-errors";
import { useCopy } from "./copy";
import { BusyButton, iconPaths } from "./ui";

/**
 * Signs out and opens the login page; a failure is told in a toast. `confirmLeave`: asked first (a
 * page with unsaved work), false stays.
 */
export function LogoutButton({ confirmLeave }: { confirmLeave?: () => boolean } = {}) {
  const { copy } = useCopy();
  const [leaving, setLeaving] = useState(false);
  const onLogout = async () => {
    if (confirmLeave && !confirmLeave()) return;
    setLeaving(true);
    try {
      await logout();
      window.location.assign(LOGIN_PATH);
    } catch (error) {
      setLeaving(false);
      showToast({
        title: copy.common.logoutFailed,
        description: apiErrorText(error, copy.apiErrors),
        variant: "destructive",
      });
    }
  };
  return <BusyButton busy={leaving} label={copy.common.logOut} icon={iconPaths.logout} onClick={onLogout} />;
}
